package io.netpulse.dashboard;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Server-sent events. Each page asks for the feed it shows, so that a browser on the fleet view is not sent every
 * rate of every host: {@code /events?feed=live} (1-s receive rates: the live rate page), {@code runs} (lifecycle,
 * steady, results and the rates of running tests' metrics), {@code fleet} (changed host rows once a second),
 * {@code results}.
 */
final class EventStream {

  /** Event-bus addresses the state publishes to; the SSE event name is the part after the last dot. */
  static final String RUN = "netpulse.dashboard.run";
  static final String STEADY = "netpulse.dashboard.steady";
  static final String RESULT = "netpulse.dashboard.result";
  static final String LIVE_RATE = "netpulse.dashboard.live.rate";
  static final String RUN_RATE = "netpulse.dashboard.runs.rate";
  static final String HOSTS = "netpulse.dashboard.hosts";

  private static final Map<String, List<String>> FEEDS = Map.of(
      "live", List.of(LIVE_RATE),
      "runs", List.of(RUN, STEADY, RESULT, RUN_RATE),
      "fleet", List.of(HOSTS),
      "results", List.of(RESULT));

  private static final long KEEPALIVE_MS = 15_000;

  private final Vertx vertx;
  private final Map<String, AtomicInteger> clients = Map.of("live", new AtomicInteger(), "runs", new AtomicInteger(),
      "fleet", new AtomicInteger(), "results", new AtomicInteger());

  EventStream(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Browsers listening to {@code feed} now. */
  int clients(String feed) {
    return clients.get(feed).get();
  }

  int clients() {
    return clients.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  void handle(RoutingContext ctx) {
    String feed = ctx.request().getParam("feed", "live");
    List<String> addresses = FEEDS.get(feed);
    if (addresses == null) {
      ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
          .end("400 Bad Request: feed must be one of " + new java.util.TreeSet<>(FEEDS.keySet()) + "\n");
      return;
    }
    HttpServerResponse response = ctx.response();
    response.setChunked(true)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .write("retry: 2000\n\n");
    List<MessageConsumer<String>> consumers = new ArrayList<>();
    for (String address : addresses) {
      String event = address.substring(address.lastIndexOf('.') + 1);
      consumers.add(vertx.eventBus().localConsumer(address, message -> {
        // a browser that cannot keep up loses updates rather than growing our memory
        if (!response.writeQueueFull()) {
          response.write("event: " + event + "\ndata: " + message.body() + "\n\n");
        }
      }));
    }
    AtomicInteger listening = clients.get(feed);
    listening.incrementAndGet();
    // comments keep idle connections open through proxies
    long keepalive = vertx.setPeriodic(KEEPALIVE_MS, id -> response.write(": keepalive\n\n"));
    response.closeHandler(v -> {
      consumers.forEach(MessageConsumer::unregister);
      vertx.cancelTimer(keepalive);
      listening.decrementAndGet();
    });
  }
}
