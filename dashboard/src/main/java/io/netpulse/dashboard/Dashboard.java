package io.netpulse.dashboard;

import io.netpulse.common.metrics.ServiceMeters;
import io.vertx.core.Vertx;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live web dashboard: a Vert.x HTTP server fed by a Kafka consumer of the runs, steady, results and metrics
 * topics.
 *
 * <pre>{@code
 * try (Dashboard d = Dashboard.start(DashboardConfig.local(bootstrap, topics))) {
 *   System.out.println(d.url());
 * }
 * }</pre>
 */
public final class Dashboard implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Vertx vertx;
  private final DashboardFeed feed;
  private final ServiceMeters meters;
  private final String urlHost;
  private final int port;
  private final String token;

  private Dashboard(Vertx vertx, DashboardFeed feed, ServiceMeters meters, String urlHost, int port, String token) {
    this.vertx = vertx;
    this.feed = feed;
    this.meters = meters;
    this.urlHost = urlHost;
    this.port = port;
    this.token = token;
  }

  /**
   * Starts the server and the topics feed; returns once the server listens.
   *
   * @throws DashboardStartException with a one-line message when the address cannot be used
   */
  public static Dashboard start(DashboardConfig config) {
    InetAddress bind = resolve(config.bindHost());
    // Anyone who can reach a non-loopback address could read the fleet's figures: require a token.
    String token = config.token() != null || bind.isLoopbackAddress() ? config.token() : AccessToken.generate();
    AccessToken access = token == null ? null : new AccessToken(token);

    ServiceMeters meters = new ServiceMeters();
    // Vert.x's own meters (HTTP server requests, event bus, pools) into the same registry, through its Micrometer SPI
    Vertx vertx = Vertx.builder().with(new VertxOptions()
            .setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true))
            .setFileSystemOptions(new FileSystemOptions()
                // classpath assets are unpacked here, not into a .vertx folder in the working directory
                .setFileCacheDir(Path.of(System.getProperty("java.io.tmpdir"), "netpulse-dashboard").toString())))
        .withMetrics(new MicrometerMetricsFactory(meters.registry()))
        .build();
    DashboardState state = new DashboardState(config.topics().results());
    DashboardFeed feed = newFeed(config, state, vertx, meters);
    meters.bind(feed.consumerMetrics());
    DashboardVerticle verticle =
        new DashboardVerticle(config.bindHost(), config.port(), access, state, uplotRoot(), meters, config.topics());
    try {
      vertx.deployVerticle(verticle).toCompletionStage().toCompletableFuture()
          .get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      feed.close();
      vertx.close();
      meters.close();
      throw startFailure(config, e instanceof ExecutionException ? e.getCause() : e);
    }
    feed.start();
    String urlHost = bind.isAnyLocalAddress() ? "127.0.0.1" : config.bindHost();
    Dashboard dashboard = new Dashboard(vertx, feed, meters, urlHost, verticle.actualPort(), token);
    LOG.info("dashboard listening on {}:{}, reading {}, {}, {} and {}", config.bindHost(), dashboard.port(),
        config.topics().runs(), config.topics().steady(), config.topics().results(), config.topics().metrics());
    return dashboard;
  }

  /** {@code http://HOST:PORT/}, with {@code ?token=…} when a token is required. */
  public String url() {
    return url("");
  }

  /** The URL of one page, e.g. {@code runs.html}, with {@code ?token=…} when a token is required. */
  public String url(String page) {
    String host = urlHost.contains(":") ? "[" + urlHost + "]" : urlHost;
    return "http://" + host + ":" + port + "/" + page + (token == null ? "" : "?token=" + token);
  }

  public int port() {
    return port;
  }

  /** The token browsers must present (given or generated), or null when none is required. */
  public String token() {
    return token;
  }

  /**
   * Waits until the feed has its partitions and start offsets: metrics rows produced after this returns
   * are all shown. Rows produced before the dashboard started are not (it reads from the latest).
   */
  public void awaitLiveFeed(Duration timeout) throws TimeoutException {
    feed.awaitPositioned(timeout);
  }

  @Override
  public void close() {
    feed.close();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("dashboard did not close cleanly: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      meters.close();
    }
  }

  private static DashboardFeed newFeed(DashboardConfig config, DashboardState state, Vertx vertx,
      ServiceMeters meters) {
    try {
      return new DashboardFeed(config.kafka(), config.topics(), state);
    } catch (KafkaException e) {
      vertx.close();
      meters.close();
      Throwable reason = e.getCause() != null ? e.getCause() : e;
      throw new DashboardStartException("dashboard cannot use Kafka bootstrap servers '"
          + config.kafka().bootstrapServers() + "': " + reason.getMessage(), e);
    }
  }

  private static InetAddress resolve(String bindHost) {
    try {
      return InetAddress.getByName(bindHost);
    } catch (UnknownHostException e) {
      throw new DashboardStartException("dashboard bind host '" + bindHost + "' is not a known address");
    }
  }

  private static DashboardStartException startFailure(DashboardConfig config, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      String reason = t.getMessage() == null ? "" : t.getMessage().toLowerCase(java.util.Locale.ROOT);
      // NIO reports a BindException; Netty's native transports an IOException with the same text
      if (t instanceof BindException || reason.contains("address already in use")) {
        if (reason.contains("in use")) {
          return new DashboardStartException("port " + config.port() + " on " + config.bindHost()
              + " is already in use; choose another with --dashboard-port", t);
        }
        return new DashboardStartException("cannot listen on " + config.bindHost() + ":" + config.port()
            + ": " + t.getMessage(), t);
      }
    }
    return new DashboardStartException("dashboard did not start on " + config.bindHost() + ":"
        + config.port() + ": " + cause, cause);
  }

  /**
   * Classpath folder of the uPlot WebJar's dist files; its version is read from the jar itself. Public for
   * the launcher's HTML report, which inlines the same uPlot.
   */
  public static String uplotRoot() {
    String pom = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
    try (InputStream in = Dashboard.class.getClassLoader().getResourceAsStream(pom)) {
      if (in == null) {
        throw new DashboardStartException("the uPlot WebJar is missing from the classpath (" + pom + ")");
      }
      Properties props = new Properties();
      props.load(in);
      return "META-INF/resources/webjars/uplot/" + props.getProperty("version") + "/dist";
    } catch (IOException e) {
      throw new DashboardStartException("cannot read " + pom + ": " + e.getMessage(), e);
    }
  }
}
