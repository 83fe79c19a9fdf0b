package io.netpulse.common.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code GET /metrics} (Prometheus text) and, where the service has one, {@code GET /health}, with the JDK's
 * HTTP server: no web framework and a few hundred KiB of heap, so the collector agent still fits -Xmx64m. On a
 * non-loopback address a bearer token is required for {@code /metrics}, as for the dashboard: the counters name every
 * host and topic. {@code /health} answers without one (status only, for probes), 200 when healthy and 503 when not.
 */
public final class MetricsServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
  public static final String PATH = "/metrics";
  public static final String HEALTH_PATH = "/health";
  private static final String TEXT = "text/plain; charset=utf-8";

  /** What {@code /health} says: {@code healthy} gives 200, otherwise 503; {@code text} is one line. */
  public record Health(boolean healthy, String text) {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final String service;
  private final byte[] expectedToken; // null: no token asked
  private final Supplier<String> metrics;
  private final Supplier<Health> health; // null: no /health

  private MetricsServer(HttpServer server, ExecutorService executor, String service, String token,
      Supplier<String> metrics, Supplier<Health> health) {
    this.server = server;
    this.executor = executor;
    this.service = service;
    this.expectedToken = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.metrics = metrics;
    this.health = health;
  }

  /** {@link #start(String, InetSocketAddress, String, Supplier, Supplier)} without {@code /health}. */
  public static MetricsServer start(String service, InetSocketAddress bind, String token, Supplier<String> metrics)
      throws IOException {
    return start(service, bind, token, metrics, null);
  }

  /**
   * Binds and starts serving.
   *
   * @param service the service's name, for messages and the thread's name ("collector", "processor")
   * @param bind    address and port (0: a free port)
   * @param token   bearer token clients must send, or null; required when {@code bind} is not a loopback address
   * @param metrics the exposition text ({@link ServiceMeters#scrape()}), computed per request
   * @param health  what {@code /health} says, computed per request; null: no {@code /health}
   * @throws IllegalArgumentException a non-loopback address without a token
   * @throws IOException              the address cannot be bound (port in use, address not local)
   */
  public static MetricsServer start(String service, InetSocketAddress bind, String token, Supplier<String> metrics,
      Supplier<Health> health) throws IOException {
    if (token != null && token.isBlank()) {
      token = null;
    }
    if (token == null && (bind.getAddress() == null || !bind.getAddress().isLoopbackAddress())) {
      throw new IllegalArgumentException(service + " metrics endpoint on " + bind.getHostString()
          + " is reachable from other hosts: it needs a token");
    }
    HttpServer server = HttpServer.create(bind, 8);
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, service + "-metrics-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    MetricsServer endpoint = new MetricsServer(server, executor, service, token, metrics, health);
    server.createContext("/", endpoint::handle);
    server.start();
    return endpoint;
  }

  /** {@code http://HOST:PORT/metrics} with the bound port. */
  public URI url() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + PATH);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      boolean isHealth = health != null && HEALTH_PATH.equals(path);
      if (!isHealth && !authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"netpulse " + service + "\"");
        respond(exchange, 401, TEXT, "401 Unauthorized: send the " + service
            + "'s --metrics-token as 'Authorization: Bearer TOKEN'\n");
        return;
      }
      if (!isHealth && !PATH.equals(path)) {
        respond(exchange, 404, TEXT, "404 Not Found: metrics are at " + PATH
            + (health == null ? "" : ", health at " + HEALTH_PATH) + "\n");
        return;
      }
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        respond(exchange, 405, TEXT, "405 Method Not Allowed\n");
        return;
      }
      if (isHealth) {
        Health h = health.get();
        respond(exchange, h.healthy() ? 200 : 503, TEXT, h.text() + "\n");
      } else {
        respond(exchange, 200, ServiceMeters.CONTENT_TYPE, metrics.get());
      }
    } catch (RuntimeException e) { // a failing scrape must not end the service
      LOG.warn("{} metrics request failed: {}", service, e.toString());
    }
  }

  private boolean authorized(String authorization) {
    if (expectedToken == null) {
      return true;
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, expectedToken); // constant time: no timing hint about the token
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String text)
      throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
