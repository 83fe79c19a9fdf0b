package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.common.metrics.MetricsServer;
import io.netpulse.common.metrics.ServiceMeters;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testkit.Exposition;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /metrics over real HTTP, read by Prometheus' own text parser ({@link Exposition}): the collector's per-source
 * counters, the Kafka producer's (Micrometer's KafkaClientMetrics) and the JVM's, moving as lines are sent.
 */
@Tag("kafka")
class MetricsEndpointTest {

  @TempDir Path dir;

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

  @BeforeAll
  static void parser() {
    assertThat(Exposition.parserAvailable()).as("python3-prometheus-client (bin/install-deps)").isTrue();
  }

  @Test
  void metricsMatchTheCountersOfEverySourceAndMoveAsLinesAreSent() throws Exception {
    Topics topics = Topics.defaults();
    String oddHost = "odd\"host\\1"; // quote and backslash must come back unescaped
    CollectorMetrics metrics = new CollectorMetrics();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 1);
      try (KafkaLineSink sink = new KafkaLineSink(SinkSettings.memoryOnly(kafka.connection(), topics.lines()),
              metrics);
          ServiceMeters meters = new ServiceMeters()) {
        CollectorMeters sources = meters.bind(new CollectorMeters(metrics));
        meters.bind(sink.producerMetrics());
        try (MetricsServer endpoint = MetricsServer.start("collector", LOOPBACK, null, () -> {
          sources.refresh();
          return meters.scrape();
        })) {
          Exposition before = scrape(endpoint.url());
          assertThat(before.samples("netpulse_collector_lines_sent_total", l -> true)).isEmpty();
          assertThat(before.sum("jvm_memory_used_bytes", l -> "heap".equals(l.get("area")))).isPositive();
          double sentBefore = before.sum("kafka_producer_record_send_total");

          try (ProcessLineSource a = new ProcessLineSource(oddHost, "five", null,
                  List.of("sh", "-c", "for i in 1 2 3 4 5; do echo $i; done; exec sleep 60"), Map.of(), sink, metrics)
                  .start();
              ProcessLineSource b = new ProcessLineSource("h2", "two", null,
                  List.of("sh", "-c", "echo x; echo y; exec sleep 60"), Map.of(), sink, metrics).start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> metrics.stats(oddHost, "five").sent() == 5
                && metrics.stats("h2", "two").sent() == 2);

            HttpResponse<String> response = get(endpoint.url(), null);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue(ServiceMeters.CONTENT_TYPE);
            Exposition parsed = Exposition.parse(response.body());
            for (SourceStats s : metrics.snapshot()) {
              Map<String, String> labels = Map.of("host", s.id().host(), "source", s.id().source());
              assertThat(parsed.value("netpulse_collector_lines_read_total", labels)).isEqualTo(s.read());
              assertThat(parsed.value("netpulse_collector_lines_sent_total", labels)).isEqualTo(s.sent());
              assertThat(parsed.value("netpulse_collector_lines_spooled_total", labels)).isEqualTo(s.spooled());
              assertThat(parsed.value("netpulse_collector_lines_dropped_total", labels)).isEqualTo(s.dropped());
              assertThat(parsed.value("netpulse_collector_sampler_restarts_total", labels)).isEqualTo(s.restarts());
              assertThat(parsed.value("netpulse_collector_ssh_gaps_total", labels)).isEqualTo(s.gaps());
              assertThat(parsed.value("netpulse_collector_ssh_gap_seconds_total", labels))
                  .isEqualTo(s.gapMillis() / 1000.0);
              assertThat(parsed.value("netpulse_collector_restart_gap_seconds_total", labels))
                  .isEqualTo(s.restartGapMillis() / 1000.0);
            }
            assertThat(parsed.value("netpulse_collector_lines_read_total",
                Map.of("host", oddHost, "source", "five"))).isEqualTo(5);
            assertThat(parsed.value("netpulse_collector_lines_sent_total", Map.of("host", "h2", "source", "two")))
                .isEqualTo(2);
            assertThat(parsed.type("netpulse_collector_lines_read")).isEqualTo("counter");
            assertThat(parsed.type("jvm_memory_used_bytes")).isEqualTo("gauge");
            // the producer's own figures, through Micrometer's Kafka client binder
            assertThat(parsed.sum("kafka_producer_record_send_total")).isGreaterThan(sentBefore);
            assertThat(parsed.sum("kafka_producer_record_error_total")).isZero();
            assertThat(get(endpoint.url().resolve("/other"), null).statusCode()).isEqualTo(404);
          }
        }
      }
    }
  }

  @Test
  void tokenIsRequiredOnceSet() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    metrics.of("h", "s").read();
    try (ServiceMeters meters = new ServiceMeters()) {
      meters.bind(new CollectorMeters(metrics));
      try (MetricsServer endpoint = MetricsServer.start("collector", LOOPBACK, "s3cret-token", meters::scrape)) {
        HttpResponse<String> none = get(endpoint.url(), null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate"))
            .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(none.body()).doesNotContain("netpulse_collector_lines_read_total");
        assertThat(get(endpoint.url(), "Bearer wrong").statusCode()).isEqualTo(401);
        assertThat(get(endpoint.url(), "Basic czNjcmV0LXRva2Vu").statusCode()).isEqualTo(401);
        HttpResponse<String> good = get(endpoint.url(), "Bearer s3cret-token");
        assertThat(good.statusCode()).isEqualTo(200);
        assertThat(Exposition.parse(good.body()).value("netpulse_collector_lines_read_total",
            Map.of("host", "h", "source", "s"))).isEqualTo(1);
      }
    }
  }

  @Test
  void nonLoopbackAddressWithoutTokenIsRefusedBeforeBinding() {
    assertThatThrownBy(() -> MetricsServer.start("collector", new InetSocketAddress("0.0.0.0", 0), null, () -> ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0.0.0.0").hasMessageContaining("token");
  }

  private static Exposition scrape(URI url) throws Exception {
    HttpResponse<String> response = get(url, null);
    assertThat(response.statusCode()).isEqualTo(200);
    return Exposition.parse(response.body());
  }

  private static HttpResponse<String> get(URI url, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
