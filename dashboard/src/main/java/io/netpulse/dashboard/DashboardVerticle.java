package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.Json;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;

/** The HTTP side: page, static assets, JSON API and the SSE live feed, all routes in {@link #router()}. */
final class DashboardVerticle extends VerticleBase {

  /** Event-bus address the Kafka feed publishes each rate to, as JSON text. */
  static final String RATES_ADDRESS = "netpulse.dashboard.rates";

  private static final long SSE_KEEPALIVE_MS = 15_000;
  private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
      + " img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

  private final String bindHost;
  private final int port;
  private final AccessToken accessToken; // null: open (loopback without a token)
  private final RateStore store;
  private final String uplotRoot;
  private HttpServer server;

  DashboardVerticle(String bindHost, int port, AccessToken accessToken, RateStore store, String uplotRoot) {
    this.bindHost = bindHost;
    this.port = port;
    this.accessToken = accessToken;
    this.store = store;
    this.uplotRoot = uplotRoot;
  }

  @Override
  public Future<?> start() {
    return vertx.createHttpServer()
        .requestHandler(router())
        .listen(port, bindHost)
        .onSuccess(s -> server = s);
  }

  int actualPort() {
    return server.actualPort();
  }

  private Router router() {
    Router router = Router.router(vertx);
    router.get("/health").handler(this::health); // before the token check: for load balancers
    if (accessToken != null) {
      router.route().handler(accessToken::handle);
    }
    router.route().handler(this::securityHeaders);
    router.get("/events").handler(this::events);
    router.get("/api/rates/latest").handler(this::latest);
    router.get("/api/rates/history").handler(this::history);
    router.get("/assets/uplot/*").handler(StaticHandler.create(uplotRoot));
    router.get("/*").handler(StaticHandler.create("webroot"));
    return router;
  }

  private void health(RoutingContext ctx) {
    ctx.json(new io.vertx.core.json.JsonObject().put("status", "UP"));
  }

  private void securityHeaders(RoutingContext ctx) {
    ctx.response()
        .putHeader("Content-Security-Policy", CSP)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
    ctx.next();
  }

  private void latest(RoutingContext ctx) {
    sendJson(ctx, store.latest());
  }

  private void history(RoutingContext ctx) {
    String host = ctx.request().getParam("host");
    String metric = ctx.request().getParam("metric");
    if (host == null || metric == null) {
      ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
          .end("400 Bad Request: /api/rates/history needs the query parameters host and metric"
              + " (iface and window are optional; window defaults to 1s)\n");
      return;
    }
    String window = ctx.request().getParam("window", "1s");
    String iface = ctx.request().getParam("iface");
    List<RateEvent> rates = store.history(new SeriesKey(host, iface, metric, window));
    if (rates.isEmpty() && "".equals(iface)) {
      rates = store.history(new SeriesKey(host, null, metric, window)); // the page sends "" for no iface
    }
    sendJson(ctx, rates);
  }

  private static void sendJson(RoutingContext ctx, Object body) {
    ctx.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end(Json.text(body));
  }

  /** Server-sent events: one {@code event: rate} per rate, for as long as the browser listens. */
  private void events(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response.setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .write("retry: 2000\n\n");
    MessageConsumer<String> rates = vertx.eventBus().localConsumer(RATES_ADDRESS, message -> {
      // a browser that cannot keep up loses rates rather than growing our memory
      if (!response.writeQueueFull()) {
        response.write("event: rate\ndata: " + message.body() + "\n\n");
      }
    });
    // comments keep idle connections open through proxies
    long keepalive = vertx.setPeriodic(SSE_KEEPALIVE_MS, id -> response.write(": keepalive\n\n"));
    response.closeHandler(v -> {
      rates.unregister();
      vertx.cancelTimer(keepalive);
    });
  }
}
