package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.Json;
import io.vertx.core.eventbus.EventBus;

/**
 * Hands each update of the state to the event-bus addresses whose feeds show it, serialised once. Rates are the bulk
 * (a fleet sends thousands a second): only 1-s receive rates reach the live page, and only running tests' series
 * reach the runs page.
 */
final class BusBridge implements DashboardState.Broadcast {

  private final EventBus bus;
  private final RunBoard runs;

  BusBridge(EventBus bus, RunBoard runs) {
    this.bus = bus;
    this.runs = runs;
  }

  @Override
  public void send(String event, Object value) {
    switch (event) {
      case DashboardState.RUN -> bus.publish(EventStream.RUN, Json.text(value));
      case DashboardState.STEADY -> bus.publish(EventStream.STEADY, Json.text(value));
      case DashboardState.RESULT -> bus.publish(EventStream.RESULT, Json.text(value));
      case DashboardState.RATE -> rate((RateEvent) value);
      default -> throw new IllegalArgumentException("no feed for " + event);
    }
  }

  private void rate(RateEvent rate) {
    boolean live = FleetView.WINDOW.equals(rate.window())
        && ("rx_bps".equals(rate.metric()) || "rx_pps".equals(rate.metric()));
    boolean watched = runs.watches(SeriesKey.of(rate), rate.windowEnd());
    if (!live && !watched) {
      return;
    }
    String json = Json.text(rate);
    if (live) {
      bus.publish(EventStream.LIVE_RATE, json);
    }
    if (watched) {
      bus.publish(EventStream.RUN_RATE, json);
    }
  }
}
