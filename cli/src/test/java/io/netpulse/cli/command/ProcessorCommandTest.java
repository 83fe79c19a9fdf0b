package io.netpulse.cli.command;

import io.netpulse.testbed.ChildJava;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import io.netpulse.testkit.Exposition;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse processor} as the compose service runs it, in its own JVM, configured only through
 * the environment: on an empty cluster it creates the topics, copies per-second rows into the store
 * (the embedded QuestDB, which takes InfluxDB v2 writes) and keeps its health file fresh.
 */
@Tag("kafka")
class ProcessorCommandTest {

  @TempDir Path dir;

  @Test
  void anUnreachableClusterIsAOneLineErrorAndANonZeroExit() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    // the admin calls' timeout the connection's settings give (30 s without): the test need not wait 30 s for no one
    // (request.timeout.ms too: the admin client refuses a default.api.timeout.ms below it)
    Path settings = Files.writeString(dir.resolve("kafka.properties"),
        "default.api.timeout.ms=5000\nrequest.timeout.ms=5000\n");
    Process p = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "processor", "--kafka-config", settings.toString(),
        "--bootstrap-servers", "127.0.0.1:" + closedPort, "--data-dir", dir.toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("exits by itself").isTrue();
    String out = Files.readString(dir.resolve("out.txt"));
    assertThat(p.exitValue()).as(out).isNotZero();
    assertThat(out).contains("netpulse: processor: cannot create topics on 127.0.0.1:" + closedPort)
        .contains("check --bootstrap-servers").doesNotContain("\tat ");
  }

  @Test
  void aNonLoopbackMetricsHostWithoutATokenIsAUsageErrorBeforeAnythingStarts() throws Exception {
    Process p = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "processor",
        "--bootstrap-servers", "127.0.0.1:1", "--data-dir", dir.toString(), "--metrics-port", "0",
        "--metrics-host", "0.0.0.0"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits by itself").isTrue();
    String out = Files.readString(dir.resolve("out.txt"));
    assertThat(p.exitValue()).as(out).isEqualTo(2);
    assertThat(out).contains("--metrics-host 0.0.0.0 is reachable from other hosts: set --metrics-token")
        .doesNotContain("\tat ");
  }

  @Test
  void createsTopicsStoresRowsAndReportsRunningInItsHealthFileAndEndpoint() throws Exception {
    assertThat(Exposition.parserAvailable()).as("python3-prometheus-client (bin/install-deps)").isTrue();
    Topics topics = Topics.defaults();
    int metricsPort;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      metricsPort = free.getLocalPort();
    }
    URI metrics = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
    HttpClient http = HttpClient.newHttpClient();
    Path health = dir.resolve("health/processor.health");
    Path log = dir.resolve("processor.log");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedQuestDb store = EmbeddedQuestDb.start(dir.resolve("questdb"), 0)) {
      ProcessBuilder pb = new ProcessBuilder(ChildJava.command("-Xmx512m",
          "-cp", System.getProperty("java.class.path"), Main.class.getName(), "processor"))
          .redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> env = pb.environment();
      env.put("NETPULSE_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
      env.put("NETPULSE_PARTITIONS", "2");
      env.put("NETPULSE_INFLUX_URL", store.url());
      env.put("NETPULSE_HEALTH_FILE", health.toString());
      env.put("NETPULSE_DATA_DIR", dir.resolve("data").toString());
      env.put("NETPULSE_APPLICATION_ID", "processor-command-test");
      env.put("NETPULSE_METRICS_PORT", Integer.toString(metricsPort));
      env.put("NETPULSE_METRICS_TOKEN", "scrape-token");
      Process processor = pb.start();
      try {
        Awaitility.await("health file says RUNNING (log " + log + ")").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> Files.exists(health) && Files.readString(health).startsWith("RUNNING "));

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
          var described = admin.describeTopics(List.of(topics.lines(), topics.metrics(), topics.windows(), topics.results()))
              .allTopicNames().get(30, TimeUnit.SECONDS);
          described.values().forEach(t -> assertThat(t.partitions()).as(t.name()).hasSize(2));
        }

        long now = System.currentTimeMillis() / 1000 * 1000;
        WideSample row = new WideSample(WideSample.SCHEMA, "net", Map.of("host", "h1", "interface", "eth0",
            "source", "sar-dev"), Map.of("rx_bps", 42.0), Map.of("rx_bps", "bit/s"), now - 1000);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
          producer.send(new ProducerRecord<>(topics.metrics(), "h1",
              JsonSerde.of(WideSample.class).serializer().serialize(topics.metrics(), row))).get(30, TimeUnit.SECONDS);
        }
        Awaitility.await("the row reaches the store").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(() -> !store.sql("select rx_bps from net where host = 'h1'").isEmpty());
        assertThat(store.sql("select rx_bps from net where host = 'h1'").get(0).get("rx_bps")).isEqualTo(42.0);
        Awaitility.await("the health file counts it").atMost(Duration.ofSeconds(30))
            .until(() -> Files.readString(health).contains("stored_metrics=1"));
        assertThat(Files.readString(health)).as("health line").matches(
            "RUNNING at=\\d+ processed=\\d+ waiting=-?\\d+ dead_lettered=0 stored_metrics=1 .*\\n?");

        // the same status at /health (no token), the store writer's counter at /metrics (token required)
        HttpResponse<String> up = http.send(HttpRequest.newBuilder(metrics.resolve("/health")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(up.statusCode()).as(up.body()).isEqualTo(200);
        assertThat(up.body()).startsWith("RUNNING at=");
        assertThat(http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString())
            .statusCode()).isEqualTo(401);
        Exposition scraped = Exposition.parse(http.send(HttpRequest.newBuilder(metrics)
            .header("Authorization", "Bearer scrape-token").build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(scraped.value("netpulse_store_metrics_total", Map.of())).isEqualTo(1);
        assertThat(scraped.value("netpulse_store_write_errors_total", Map.of())).isZero();
        assertThat(scraped.value("netpulse_processor_dead_letters_total", Map.of())).isZero();
        assertThat(scraped.samples("kafka_consumer_fetch_manager_records_lag_max",
            l -> l.getOrDefault("client_id", "").startsWith("netpulse-store"))).isNotEmpty();
      } finally {
        processor.destroy(); // SIGTERM, as docker stop sends
        if (!processor.waitFor(60, TimeUnit.SECONDS)) {
          processor.destroyForcibly();
        }
      }
      List<String> lines = new ArrayList<>(Files.readAllLines(log));
      assertThat(String.join("\n", lines)).contains("processor running: processor-command-test").contains("storing to");

      // SIGTERM closed Streams before the JVM ended: the member left the group, and the next start finds its
      // tasks clean (no TaskCorruptedException, no state restored from scratch)
      assertThat(processor.exitValue()).as("exit on SIGTERM").isEqualTo(143);
      assertThat(String.join("\n", lines)).contains("processor stopping: closing Kafka Streams").contains("processor stopped");
      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        assertThat(admin.describeConsumerGroups(List.of("processor-command-test")).all().get(30, TimeUnit.SECONDS)
            .get("processor-command-test").members()).as("members of the group right after SIGTERM").isEmpty();
      }
      Path log2 = dir.resolve("processor-2.log");
      Process again = pb.redirectOutput(log2.toFile()).start();
      try {
        Awaitility.await("restarted processor RUNNING (log " + log2 + ")").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> Files.readString(log2).contains("processor running: processor-command-test"));
      } finally {
        again.destroy();
        if (!again.waitFor(60, TimeUnit.SECONDS)) {
          again.destroyForcibly();
        }
      }
      assertThat(Files.readString(log2)).as("restart after a clean stop")
          .doesNotContain("TaskCorruptedException").doesNotContain("\tat ").contains("processor stopped");
    }
  }
}
