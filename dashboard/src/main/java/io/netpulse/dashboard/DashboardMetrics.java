package io.netpulse.dashboard;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.netpulse.common.Topics;
import java.util.List;

/**
 * The dashboard's own figures as Micrometer meters, beside Vert.x's (HTTP server, event bus), the Kafka consumer's
 * and the JVM's; the Prometheus names are those it had before ({@code netpulse_dashboard_records_total}, ...).
 */
final class DashboardMetrics implements MeterBinder {

  private static final List<String> FEEDS = List.of("live", "runs", "fleet", "results");

  private final DashboardState state;
  private final EventStream events;
  private final List<String> topics;

  DashboardMetrics(DashboardState state, EventStream events, Topics topics) {
    this.state = state;
    this.events = events;
    this.topics = List.of(topics.runs(), topics.steady(), topics.results(), topics.metrics());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    for (String topic : topics) {
      FunctionCounter.builder("netpulse.dashboard.records", state, s -> s.consumedByTopic().getOrDefault(topic, 0L))
          .description("Records read from each topic.").tag("topic", topic).register(registry);
      FunctionCounter.builder("netpulse.dashboard.records.skipped", state,
              s -> s.skippedByTopic().getOrDefault(topic, 0L))
          .description("Records that could not be read (bad JSON or missing fields), by topic.").tag("topic", topic)
          .register(registry);
    }
    for (String feed : FEEDS) {
      Gauge.builder("netpulse.dashboard.sse.clients", events, e -> e.clients(feed))
          .description("Browsers connected to each live feed.").tag("feed", feed).register(registry);
    }
    Gauge.builder("netpulse.dashboard.runs", state, s -> s.runs().size()).description("Runs held for the live view.")
        .register(registry);
    Gauge.builder("netpulse.dashboard.rate.series", state, s -> s.rates().size())
        .description("Rate series (host, iface, metric, window) held.").register(registry);
  }
}
