package io.netpulse.dashboard;

import io.netpulse.common.Topics;
import io.netpulse.common.json.Json;
import io.netpulse.common.metrics.ServiceMeters;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.util.List;

/** The HTTP side: pages, static assets, JSON API, metrics and the SSE feeds, all routes in {@link #router()}. */
final class DashboardVerticle extends VerticleBase {

  private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline';"
      + " img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

  private static final long FLEET_PUSH_MS = 1000;

  private final String bindHost;
  private final int port;
  private final AccessToken accessToken; // null: open (loopback without a token)
  private final DashboardState state;
  private final String uplotRoot;
  private final ServiceMeters meters;
  private final Topics topics;
  private HttpServer server;
  private EventStream events;
  private ApiHandlers api;
  private FleetView fleet;
  private long fleetPushedUpTo;

  DashboardVerticle(String bindHost, int port, AccessToken accessToken, DashboardState state, String uplotRoot,
      ServiceMeters meters, Topics topics) {
    this.meters = meters;
    this.topics = topics;
    this.bindHost = bindHost;
    this.port = port;
    this.accessToken = accessToken;
    this.state = state;
    this.uplotRoot = uplotRoot;
  }

  @Override
  public Future<?> start() {
    events = new EventStream(vertx);
    meters.bind(new DashboardMetrics(state, events, topics));
    fleet = new FleetView(state.rates());
    api = new ApiHandlers(state, fleet);
    state.broadcastTo(new BusBridge(vertx.eventBus(), state.runs()));
    vertx.setPeriodic(FLEET_PUSH_MS, id -> pushFleet());
    // HTTP/1.1 only: Vert.x accepts a clear-text upgrade to HTTP/2 (h2c) by default, and a client that asks for it
    // (Java's HttpClient does on every new connection) got, about one first request in ten with a /metrics-sized body,
    // the HTTP/1.1 body read as HTTP/2 frames ("Frame type(120) length(7895160) exceeds MAX_FRAME_SIZE") or no answer.
    // Browsers never use h2c and Prometheus scrapes over HTTP/1.1, so nothing is lost.
    return vertx.createHttpServer(new HttpServerOptions().setHttp2ClearTextEnabled(false))
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
    router.get("/events").handler(events::handle);
    router.get("/metrics").handler(this::metrics);
    router.get("/api/rates/latest").handler(this::latest);
    router.get("/api/rates/history").handler(this::history);
    router.get("/api/runs").handler(api::runs);
    router.get("/api/runs/:run").handler(api::run);
    router.get("/api/results").handler(api::results);
    router.get("/api/plans").handler(api::plans);
    router.get("/api/executions").handler(api::executions);
    router.get("/api/compare").handler(api::compare);
    router.get("/api/hosts").handler(api::hosts);
    router.get("/assets/uplot/*").handler(StaticHandler.create(uplotRoot));
    router.get("/*").handler(StaticHandler.create("webroot"));
    return router;
  }

  /** Once a second, the fleet rows that changed, to browsers on the fleet view (none listening: nothing done). */
  private void pushFleet() {
    long upTo = state.rates().updates();
    // with nobody listening the mark stays put: the first browser to connect then gets everything since
    if (events.clients("fleet") == 0 || upTo == fleetPushedUpTo) {
      return;
    }
    List<FleetView.HostRow> changed = fleet.changedSince(fleetPushedUpTo);
    fleetPushedUpTo = upTo;
    if (!changed.isEmpty()) {
      vertx.eventBus().publish(EventStream.HOSTS, Json.text(changed));
    }
  }

  private void health(RoutingContext ctx) {
    ctx.json(new io.vertx.core.json.JsonObject().put("status", "UP"));
  }

  private void metrics(RoutingContext ctx) {
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, ServiceMeters.CONTENT_TYPE).end(meters.scrape());
  }

  private void securityHeaders(RoutingContext ctx) {
    ctx.response()
        .putHeader("Content-Security-Policy", CSP)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
    ctx.next();
  }

  private void latest(RoutingContext ctx) {
    ApiHandlers.json(ctx, state.rates().latest());
  }

  private void history(RoutingContext ctx) {
    String host = ctx.request().getParam("host");
    String metric = ctx.request().getParam("metric");
    if (host == null || metric == null) {
      ApiHandlers.badRequest(ctx, "/api/rates/history needs the query parameters host and metric"
          + " (iface and window are optional; window defaults to 1s)");
      return;
    }
    String window = ctx.request().getParam("window", "1s");
    String iface = ctx.request().getParam("iface");
    List<RateStore.Point> points = state.rates().history(new SeriesKey(host, iface, metric, window));
    if (points.isEmpty() && "".equals(iface)) {
      points = state.rates().history(new SeriesKey(host, null, metric, window)); // the page sends "" for no iface
    }
    ApiHandlers.json(ctx, points);
  }
}
