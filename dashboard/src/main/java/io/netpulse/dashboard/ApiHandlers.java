package io.netpulse.dashboard;

import io.netpulse.common.compare.CompareJson;
import io.netpulse.common.compare.CompareReport;
import io.netpulse.common.compare.ExecutionLookupException;
import io.netpulse.common.compare.ExecutionResults;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.json.Json;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON and CSV API: one method per route, all reading the {@link DashboardState}. Routes: {@link DashboardVerticle}. */
final class ApiHandlers {

  private static final int DEFAULT_RUNS = 200;
  private static final int DEFAULT_EXECUTIONS = 500;

  private final DashboardState state;
  private final FleetView fleet;

  ApiHandlers(DashboardState state, FleetView fleet) {
    this.state = state;
    this.fleet = fleet;
  }

  /** {@code /api/runs[?active=true][&limit=N]}: newest first. */
  void runs(RoutingContext ctx) {
    boolean active = Boolean.parseBoolean(ctx.request().getParam("active", "false"));
    Integer limit = positiveInt(ctx, "limit", DEFAULT_RUNS);
    if (limit != null) {
      json(ctx, state.runs().list(active, limit));
    }
  }

  /** {@code /api/runs/:run}: the run, its test's results so far and its per-second series. */
  void run(RoutingContext ctx) {
    RunView run = state.runs().get(ctx.pathParam("run"));
    if (run == null) {
      notFound(ctx, "no run " + ctx.pathParam("run") + " (unknown, or older than the " + RunBoard.MAX_RUNS
          + " runs kept)");
      return;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("run", run);
    body.put("results", state.results().of(run.plan()).stream().filter(r -> r.test().equals(run.test())).toList());
    body.put("series", run.metric() == null || run.sut() == null ? List.of() : ownSeconds(run));
    json(ctx, body);
  }

  /**
   * The run's per-second series, only its own seconds: the series (host, iface, metric) is shared by every run on
   * that SUT, so the seconds before the run began and after it ended belong to others. One second of slack each side
   * for a window that straddles an edge.
   */
  private List<RateStore.Point> ownSeconds(RunView run) {
    long from = run.startedAt() - 1000;
    long to = run.endedAt() == null ? Long.MAX_VALUE : run.endedAt() + 1000;
    return state.rates().history(new SeriesKey(run.sut(), run.iface(), run.metric(), FleetView.WINDOW)).stream()
        .filter(p -> p.windowEnd() >= from && p.windowEnd() <= to).toList();
  }

  /** {@code /api/results[?plan=P][&format=csv|json][&download=true]}. */
  void results(RoutingContext ctx) {
    String plan = ctx.request().getParam("plan");
    List<ResultEvent> results = state.results().of(plan);
    String format = ctx.request().getParam("format", "json");
    boolean download = Boolean.parseBoolean(ctx.request().getParam("download", "false"));
    String name = "netpulse-results" + (plan == null ? "" : "-" + fileSafe(plan));
    switch (format) {
      case "json" -> {
        if (download) {
          attachment(ctx, name + ".json");
        }
        json(ctx, results);
      }
      case "csv" -> {
        if (download) {
          attachment(ctx, name + ".csv");
        }
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8")
            .putHeader(HttpHeaders.CACHE_CONTROL, "no-store").end(ResultsCsv.of(results));
      }
      default -> badRequest(ctx, "format must be json or csv, not '" + format + "'");
    }
  }

  /** {@code /api/plans}: plan names that have results. */
  void plans(RoutingContext ctx) {
    json(ctx, state.results().plans());
  }

  /** {@code /api/executions[?limit=N]}: executions that have results, newest first, with their labels. */
  void executions(RoutingContext ctx) {
    Integer limit = positiveInt(ctx, "limit", DEFAULT_EXECUTIONS);
    if (limit != null) {
      json(ctx, state.executions().executions().stream().limit(limit).toList());
    }
  }

  /**
   * {@code /api/compare?a=X&b=Y}: B against A, each an execution id, a plan's name (its latest execution) or a label
   * selector KEY=VALUE[,KEY=VALUE], resolved and judged as {@code netpulse compare} does; the body is its
   * {@code --format json}. A malformed selector is a 400, one that names nothing a 404, each naming a or b.
   */
  void compare(RoutingContext ctx) {
    ExecutionResults a = side(ctx, "a");
    ExecutionResults b = a == null ? null : side(ctx, "b");
    if (b != null) {
      json(ctx, CompareJson.of(CompareReport.of(a, b), null));
    }
  }

  /** One side of a comparison, or null once the response says what is wrong with it. */
  private ExecutionResults side(RoutingContext ctx, String field) {
    String given = ctx.request().getParam(field);
    if (given == null || given.isBlank()) {
      badRequest(ctx, field + ": missing: /api/compare needs a and b, each an execution id, a plan name or a label "
          + "selector KEY=VALUE[,KEY=VALUE]");
      return null;
    }
    try {
      return state.executions().resolve(given.strip());
    } catch (ExecutionLookupException e) {
      if (e.kind() == ExecutionLookupException.Kind.MALFORMED) {
        badRequest(ctx, field + ": " + e.getMessage());
      } else {
        notFound(ctx, field + ": " + e.getMessage());
      }
      return null;
    }
  }

  /** {@code /api/hosts}: every host/interface with its latest rates and a sparkline. */
  void hosts(RoutingContext ctx) {
    json(ctx, Map.of("updates", state.rates().updates(), "hosts", fleet.all()));
  }

  private static Integer positiveInt(RoutingContext ctx, String name, int fallback) {
    String raw = ctx.request().getParam(name);
    if (raw == null) {
      return fallback;
    }
    try {
      int v = Integer.parseInt(raw);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    badRequest(ctx, name + " must be a positive whole number, not '" + raw + "'");
    return null;
  }

  /** Plan names come from the topics: keep letters, digits, dot, dash and underscore for a file name. */
  static String fileSafe(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private static void attachment(RoutingContext ctx, String file) {
    ctx.response().putHeader("Content-Disposition", "attachment; filename=\"" + file + "\"");
  }

  static void json(RoutingContext ctx, Object body) {
    ctx.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .end(Json.text(body));
  }

  static void badRequest(RoutingContext ctx, String why) {
    ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end("400 Bad Request: " + oneLine(why) + "\n");
  }

  private static void notFound(RoutingContext ctx, String why) {
    ctx.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end("404 Not Found: " + oneLine(why) + "\n");
  }

  /** What a user typed is quoted in messages: its line breaks must not split the one line. */
  private static String oneLine(String s) {
    return s.replaceAll("[\\r\\n]+", " ");
  }
}
