package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /metrics over real HTTP: Prometheus text whose values are the collector's counters. */
@Tag("kafka")
class MetricsEndpointTest {

  @TempDir Path dir;

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  // name{host="...",source="..."} value, label values with \\ \" \n escapes
  private static final Pattern SAMPLE = Pattern.compile(
      "([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{host=\"((?:[^\"\\\\]|\\\\.)*)\",source=\"((?:[^\"\\\\]|\\\\.)*)\"})? (\\S+)");

  private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

  @Test
  void metricsMatchTheCountersOfEverySourceAndIncludeTheProducer() throws Exception {
    Topics topics = Topics.defaults();
    String oddHost = "odd\"host\\1"; // quote and backslash must come back unescaped
    CollectorMetrics metrics = new CollectorMetrics();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 1);
      try (KafkaLineSink sink = new KafkaLineSink(SinkSettings.memoryOnly(kafka.connection(), topics.lines()),
              metrics);
          MetricsEndpoint endpoint = MetricsEndpoint.start(LOOPBACK, null, () -> PrometheusText.render(metrics, sink));
          ProcessLineSource a = new ProcessLineSource(oddHost, "five", null,
              List.of("sh", "-c", "for i in 1 2 3 4 5; do echo $i; done; exec sleep 60"), Map.of(), sink, metrics)
              .start();
          ProcessLineSource b = new ProcessLineSource("h2", "two", null,
              List.of("sh", "-c", "echo x; echo y; exec sleep 60"), Map.of(), sink, metrics).start()) {
        await().atMost(Duration.ofSeconds(30)).until(() -> metrics.stats(oddHost, "five").sent() == 5
            && metrics.stats("h2", "two").sent() == 2);

        HttpResponse<String> response = get(endpoint.url(), null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(PrometheusText.CONTENT_TYPE);
        Exposition parsed = Exposition.parse(response.body());

        for (SourceStats s : metrics.snapshot()) {
          String labels = s.id().host() + "/" + s.id().source();
          assertThat(parsed.value("netpulse_collector_lines_read_total", labels)).isEqualTo(s.read());
          assertThat(parsed.value("netpulse_collector_lines_sent_total", labels)).isEqualTo(s.sent());
          assertThat(parsed.value("netpulse_collector_lines_spooled_total", labels)).isEqualTo(s.spooled());
          assertThat(parsed.value("netpulse_collector_lines_dropped_total", labels)).isEqualTo(s.dropped());
          assertThat(parsed.value("netpulse_collector_sampler_restarts_total", labels)).isEqualTo(s.restarts());
          assertThat(parsed.value("netpulse_collector_ssh_gaps_total", labels)).isEqualTo(s.gaps());
          assertThat(parsed.value("netpulse_collector_ssh_gap_seconds_total", labels))
              .isEqualTo(s.gapMillis() / 1000.0);
        }
        assertThat(parsed.value("netpulse_collector_lines_read_total", oddHost + "/five")).isEqualTo(5);
        assertThat(parsed.value("netpulse_collector_lines_sent_total", "h2/two")).isEqualTo(2);
        assertThat(parsed.value("netpulse_collector_kafka_record_errors_total", "")).isZero();
        assertThat(parsed.value("netpulse_collector_kafka_record_send_rate_per_second", "")).isNotNaN()
            .isGreaterThanOrEqualTo(0);
        assertThat(parsed.value("netpulse_collector_heap_used_bytes", "")).isPositive();
        // every family announced with HELP and TYPE before its samples
        for (String family : parsed.families()) {
          assertThat(parsed.help()).as(family).containsKey(family);
          assertThat(parsed.type()).as(family).containsKey(family);
        }
        assertThat(parsed.type()).containsEntry("netpulse_collector_lines_read_total", "counter")
            .containsEntry("netpulse_collector_heap_used_bytes", "gauge");

        assertThat(get(endpoint.url().resolve("/other"), null).statusCode()).isEqualTo(404);
      }
    }
  }

  @Test
  void tokenIsRequiredOnceSet() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    metrics.of("h", "s").read();
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(LOOPBACK, "s3cret-token",
        () -> PrometheusText.render(metrics, null))) {
      HttpResponse<String> none = get(endpoint.url(), null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(none.body()).doesNotContain("netpulse_collector_lines_read_total");
      assertThat(get(endpoint.url(), "Bearer wrong").statusCode()).isEqualTo(401);
      assertThat(get(endpoint.url(), "Basic czNjcmV0LXRva2Vu").statusCode()).isEqualTo(401);
      HttpResponse<String> good = get(endpoint.url(), "Bearer s3cret-token");
      assertThat(good.statusCode()).isEqualTo(200);
      assertThat(Exposition.parse(good.body()).value("netpulse_collector_lines_read_total", "h/s")).isEqualTo(1);
    }
  }

  @Test
  void nonLoopbackAddressWithoutTokenIsRefusedBeforeBinding() {
    assertThatThrownBy(() -> MetricsEndpoint.start(new InetSocketAddress("0.0.0.0", 0), null, () -> ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0.0.0.0").hasMessageContaining("token");
  }

  @Test
  void labelValuesAreEscaped() {
    assertThat(PrometheusText.escapeLabel("a\\b\"c\nd")).isEqualTo("a\\\\b\\\"c\\nd");
  }

  private static HttpResponse<String> get(URI url, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** What a scraper makes of the text: samples by name and host/source ("" for no labels), HELP and TYPE lines. */
  private record Exposition(Map<String, Double> samples, Map<String, String> help, Map<String, String> type,
      List<String> families) {

    static Exposition parse(String text) {
      Map<String, Double> samples = new HashMap<>();
      Map<String, String> help = new HashMap<>();
      Map<String, String> type = new HashMap<>();
      List<String> families = new ArrayList<>();
      for (String line : text.split("\n")) {
        if (line.startsWith("# HELP ")) {
          String[] parts = line.substring(7).split(" ", 2);
          help.put(parts[0], parts[1]);
        } else if (line.startsWith("# TYPE ")) {
          String[] parts = line.substring(7).split(" ", 2);
          type.put(parts[0], parts[1]);
        } else {
          Matcher m = SAMPLE.matcher(line);
          assertThat(m.matches()).as("sample line: " + line).isTrue();
          assertThat(type).as("TYPE before " + line).containsKey(m.group(1));
          String labels = m.group(2) == null ? "" : unescape(m.group(2)) + "/" + unescape(m.group(3));
          samples.put(m.group(1) + "|" + labels, Double.parseDouble(m.group(4)));
          families.add(m.group(1));
        }
      }
      return new Exposition(samples, help, type, families);
    }

    double value(String name, String labels) {
      Double v = samples.get(name + "|" + labels);
      assertThat(v).as(name + " " + labels + " in " + samples.keySet()).isNotNull();
      return v;
    }

    private static String unescape(String v) {
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        if (c == '\\' && i + 1 < v.length()) {
          char n = v.charAt(++i);
          out.append(n == 'n' ? '\n' : n);
        } else {
          out.append(c);
        }
      }
      return out.toString();
    }
  }
}
