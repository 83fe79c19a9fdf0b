package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.common.metrics.ServiceMeters;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testkit.Exposition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's /metrics over real HTTP, read by Prometheus' own text parser: a backlog of bad run events shows as
 * the consumer's lag (Micrometer's KafkaClientMetrics) and as skipped records, live rates good and bad move their
 * topic's counters, and Vert.x's own meters (its Micrometer SPI) count the HTTP requests.
 */
@Tag("kafka")
class DashboardMetricsTest {

  private static final int BACKLOG = 1500; // three polls of 500: the first ones see lag
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @BeforeAll
  static void parser() {
    assertThat(Exposition.parserAvailable()).as("python3-prometheus-client (bin/install-deps)").isTrue();
  }

  @Test
  void lagSkippedAndRecordCountersMoveAsRecordsArrive() throws Exception {
    Topics topics = new Topics("dm.");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
      kafka.createTopics(topics, 1);
      try (RateTraffic traffic = new RateTraffic(kafka.bootstrapServers(), topics.metrics())) {
        for (int i = 0; i < BACKLOG; i++) { // runs are read from the beginning: a backlog when the dashboard starts
          traffic.event(topics.runs(), "bad-" + i, "not a run event " + i);
        }
        try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), topics))) {
          dashboard.awaitLiveFeed(Duration.ofSeconds(30));
          URI metrics = URI.create(dashboard.url("metrics"));
          double[] lagSeen = {0}; // records-lag-max is a max over a window of about a minute: watch it meanwhile
          await("backlog read").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300)).until(() -> {
            Exposition e = scrape(metrics);
            lagSeen[0] = Math.max(lagSeen[0], e.samples("kafka_consumer_fetch_manager_records_lag_max",
                l -> "netpulse-dashboard".equals(l.get("client_id"))).stream()
                .mapToDouble(Exposition.Sample::value).filter(Double::isFinite).max().orElse(0));
            return e.value("netpulse_dashboard_records_skipped_total", Map.of("topic", "dm.runs"));
          }, n -> n == BACKLOG);
          Exposition before = scrape(metrics);
          assertThat(before.type("netpulse_dashboard_records_skipped")).isEqualTo("counter");
          assertThat(before.value("netpulse_dashboard_records_total", Map.of("topic", "dm.runs"))).isEqualTo(BACKLOG);
          assertThat(before.value("netpulse_dashboard_records_total", Map.of("topic", "dm.metrics"))).isZero();
          // the backlog was seen as lag: the consumer's records-lag-max rose above 0 while it was read
          assertThat(lagSeen[0]).as("records-lag-max seen while the backlog was read").isPositive();

          long now = System.currentTimeMillis();
          for (int s = 1; s <= 5; s++) {
            traffic.send(RateTraffic.rate("sut", "eth0", "rx_bps", now + s * 1000L, 1e9));
          }
          for (int b = 0; b < 3; b++) {
            traffic.sendRaw("sut", ("{broken " + b).getBytes(StandardCharsets.UTF_8));
          }
          await("live rates read").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() ->
              scrape(metrics).value("netpulse_dashboard_records_total", Map.of("topic", "dm.metrics")), n -> n == 8);
          Exposition after = scrape(metrics);
          assertThat(after.value("netpulse_dashboard_records_skipped_total", Map.of("topic", "dm.metrics"))).isEqualTo(3);
          assertThat(after.value("netpulse_dashboard_rate_series", Map.of())).isEqualTo(1);
          assertThat(after.sum("jvm_memory_used_bytes", l -> "heap".equals(l.get("area")))).isPositive();
          // Vert.x's HTTP server meters, from its Micrometer SPI: the scrapes above are requests
          assertThat(after.sum("vertx_http_server_requests_total")).isPositive();
          HttpResponse<String> raw = get(metrics);
          assertThat(raw.headers().firstValue("Content-Type")).hasValue(ServiceMeters.CONTENT_TYPE);
        }
      }
    }
  }

  private static Exposition scrape(URI url) throws Exception {
    HttpResponse<String> response = get(url);
    assertThat(response.statusCode()).isEqualTo(200);
    return Exposition.parse(response.body());
  }

  private static HttpResponse<String> get(URI url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
