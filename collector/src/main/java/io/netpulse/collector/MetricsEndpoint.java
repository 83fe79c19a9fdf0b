package io.netpulse.collector;

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
 * Serves {@code GET /metrics} (Prometheus text) with the JDK's HTTP server: no extra dependency and a few hundred KiB
 * of heap, so the agent still fits -Xmx64m. On a non-loopback address a bearer token is required, as for the
 * dashboard: the counters name every sampled host.
 */
public final class MetricsEndpoint implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
  public static final String PATH = "/metrics";

  private final HttpServer server;
  private final ExecutorService executor;
  private final byte[] expectedToken; // null: no token asked
  private final Supplier<String> body;

  private MetricsEndpoint(HttpServer server, ExecutorService executor, String token, Supplier<String> body) {
    this.server = server;
    this.executor = executor;
    this.expectedToken = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    this.body = body;
  }

  /**
   * Binds and starts serving.
   *
   * @param bind  address and port (0: a free port)
   * @param token bearer token clients must send, or null; required when {@code bind} is not a loopback address
   * @param body  the exposition text, computed per request
   * @throws IllegalArgumentException a non-loopback address without a token
   * @throws IOException              the address cannot be bound (port in use, address not local)
   */
  public static MetricsEndpoint start(InetSocketAddress bind, String token, Supplier<String> body) throws IOException {
    if (token != null && token.isBlank()) {
      token = null;
    }
    if (token == null && (bind.getAddress() == null || !bind.getAddress().isLoopbackAddress())) {
      throw new IllegalArgumentException("metrics endpoint on " + bind.getHostString()
          + " is reachable from other hosts: it needs a token");
    }
    HttpServer server = HttpServer.create(bind, 8);
    ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "collector-metrics-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    MetricsEndpoint endpoint = new MetricsEndpoint(server, executor, token, body);
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
      if (!authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"netpulse collector\"");
        respond(exchange, 401, "text/plain; charset=utf-8",
            "401 Unauthorized: send the collector's --metrics-token as 'Authorization: Bearer TOKEN'\n");
        return;
      }
      if (!PATH.equals(exchange.getRequestURI().getPath())) {
        respond(exchange, 404, "text/plain; charset=utf-8", "404 Not Found: metrics are at " + PATH + "\n");
        return;
      }
      String method = exchange.getRequestMethod();
      if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        respond(exchange, 405, "text/plain; charset=utf-8", "405 Method Not Allowed\n");
        return;
      }
      respond(exchange, 200, PrometheusText.CONTENT_TYPE, body.get());
    } catch (RuntimeException e) { // a failing scrape must not end the collector
      LOG.warn("metrics request failed: {}", e.toString());
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
