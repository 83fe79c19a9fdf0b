package io.netpulse.processor.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.common.metrics.MetricsServer;
import io.netpulse.common.metrics.ServiceMeters;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.health.ProcessorHealth;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testkit.Exposition;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's /metrics and /health over real HTTP, read by Prometheus' own text parser: lines queued before it
 * starts show as consumer lag (records-lag-max through Micrometer's KafkaStreamsMetrics, and the processor's own input
 * lag back at 0 once they are read), the lines and samples counters count them, and bad lines move the dead-letter
 * counter, not before they are sent.
 */
@Tag("kafka")
class ProcessorMetricsTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final int HOSTS = 10; // 10 × 244 recorded sar lines: more than one poll of 1000, so lag shows
  private static final int BAD = 7;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @BeforeAll
  static void parser() {
    assertThat(Exposition.parserAvailable()).as("python3-prometheus-client (bin/install-deps)").isTrue();
  }

  @Test
  void linesLagAndDeadLettersMoveInMetricsAndHealthSaysRunning() throws Exception {
    RecordedReplay replay = new RecordedReplay(TOPICS);
    List<ProducerRecord<String, byte[]>> good = new ArrayList<>();
    for (int h = 0; h < HOSTS; h++) {
      good.addAll(replay.lines("host-" + h, null));
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      kafka.createTopics(TOPICS, 2);
      produce(kafka, good); // queued before the processor starts: its first polls see them as lag
      try (ProcessorApp app = ProcessorApp.start(kafka.connection(), TOPICS, dir.resolve("streams"), "metrics-it");
          ServiceMeters meters = new ServiceMeters()) {
        app.bindMetrics(meters, TOPICS);
        try (MetricsServer endpoint = MetricsServer.start("processor",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null, meters::scrape, () -> {
              ProcessorHealth.Report r = app.health().check();
              return new MetricsServer.Health(r.healthy(), r.line(System.currentTimeMillis()));
            })) {
          assertThat(app.awaitRunning(Duration.ofSeconds(60))).isTrue();
          double[] lagSeen = {0}; // records-lag-max is a max over a window of about a minute: watch it meanwhile
          await("lines counted").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Exposition e = scrape(endpoint);
            lagSeen[0] = Math.max(lagSeen[0], lagMax(e));
            return e.sum("netpulse_processor_lines_total");
          }, n -> n >= good.size());
          Exposition read = scrape(endpoint);
          assertThat(read.type("netpulse_processor_lines")).isEqualTo("counter");
          assertThat(read.sum("netpulse_processor_rows_total")).isPositive();
          assertThat(deadLetters(read)).isZero();
          // the backlog was seen: the main consumer's records-lag-max rose above 0 while it was read
          assertThat(lagSeen[0]).as("records-lag-max seen while the backlog was read").isPositive();
          await("input lag back to 0").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() ->
              scrape(endpoint).sum("netpulse_processor_input_lag_records"), n -> n == 0);

          List<ProducerRecord<String, byte[]>> bad = new ArrayList<>();
          for (int i = 0; i < BAD; i++) {
            bad.add(new ProducerRecord<>(TOPICS.lines(), "bad-" + i, ("not json " + i).getBytes(StandardCharsets.UTF_8)));
          }
          produce(kafka, bad);
          await("dead letters counted").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() ->
              deadLetters(scrape(endpoint)), n -> n >= BAD);
          Exposition after = scrape(endpoint);
          assertThat(deadLetters(after)).isEqualTo(BAD);
          // none of them reached an error handler: the parse step dead-letters them itself
          assertThat(after.value("netpulse_processor_error_handler_dead_letters_total", Map.of())).isZero();
          assertThat(after.sum("netpulse_processor_lines_total")).isGreaterThanOrEqualTo(good.size() + BAD);
          assertThat(after.sum("jvm_memory_used_bytes", l -> "heap".equals(l.get("area")))).isPositive();
          assertThat(after.value("netpulse_processor_streams_running", Map.of())).isEqualTo(1);

          HttpResponse<String> health = get(endpoint.url().resolve(MetricsServer.HEALTH_PATH));
          assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
          assertThat(health.body()).startsWith("RUNNING ");
        }
        app.closeStreams();
      }
    }
  }

  private static double lagMax(Exposition e) {
    return e.samples("kafka_consumer_fetch_manager_records_lag_max",
        l -> l.getOrDefault("client_id", "").endsWith("StreamThread-1-consumer")).stream()
        .mapToDouble(Exposition.Sample::value).filter(Double::isFinite).max().orElse(0);
  }

  private static double deadLetters(Exposition e) {
    return e.value("netpulse_processor_dead_letters_total", Map.of());
  }

  private static Exposition scrape(MetricsServer endpoint) throws Exception {
    HttpResponse<String> response = get(endpoint.url());
    assertThat(response.statusCode()).isEqualTo(200);
    return Exposition.parse(response.body());
  }

  private static HttpResponse<String> get(URI url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void produce(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) {
    Properties p = kafka.connection().clientProperties();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    // one request in flight: on a loaded machine retried batches then cannot arrive out of order
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      records.forEach(r -> sent.add(producer.send(r)));
      producer.flush();
      for (java.util.concurrent.Future<?> f : sent) {
        f.get(); // every record written, or the test says why not
      }
    } catch (Exception e) {
      throw new AssertionError("could not produce the test's records: " + e, e);
    }
  }
}
