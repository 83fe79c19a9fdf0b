package io.netpulse.cli.command;

import io.netpulse.testbed.ChildJava;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.SecuredListeners;
import io.netpulse.common.kafka.KafkaClientSettingsFile;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.dashboard.Dashboard;
import io.netpulse.dashboard.DashboardConfig;
import io.netpulse.cli.CliRun;
import io.netpulse.cli.Main;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --kafka-config} against a real broker that requires SASL (the embedded one with its SASL_PLAINTEXT
 * listener): with the right file the collector, the processor and the dashboard move records through that listener
 * only; a wrong password, a key netpulse owns or an unknown key is one line naming the file, and the password never
 * shows.
 */
@Tag("kafka")
class KafkaConfigTest {

  private static final String USER = "netpulse";
  private static final String PASSWORD = "pw-" + Long.toHexString(System.nanoTime()) + "-secret";
  private static final String WRONG_PASSWORD = "wrong-" + Long.toHexString(System.nanoTime()) + "-secret";

  @TempDir Path dir;

  private Path clientProperties(String name, String password, String... extraLines) throws Exception {
    Path f = dir.resolve(name);
    StringBuilder text = new StringBuilder(String.join("\n",
        "# as Kafka's own tools take with --command-config",
        "security.protocol=SASL_PLAINTEXT",
        "sasl.mechanism=PLAIN",
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\",
        "    username=\"" + USER + "\" password=\"" + password + "\";"));
    for (String line : extraLines) {
      text.append('\n').append(line);
    }
    Files.writeString(f, text.append('\n').toString());
    return f;
  }

  @Test
  void collectorProcessorAndDashboardMoveRecordsThroughTheSaslListener() throws Exception {
    Topics topics = Topics.defaults();
    Path health = dir.resolve("processor.health");
    Path log = dir.resolve("processor.log");
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecured(dir.resolve("broker"), 0,
        SecuredListeners.saslPlain(Map.of(USER, PASSWORD)))) {
      Path config = clientProperties("client.properties", PASSWORD);
      String sasl = kafka.saslBootstrapServers();
      // the processor as the compose service runs it: own JVM, environment only; it creates the topics too
      ProcessBuilder pb = new ProcessBuilder(ChildJava.command("-Xmx512m",
          "-cp", System.getProperty("java.class.path"), Main.class.getName(), "processor"))
          .redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> env = pb.environment();
      env.put("NETPULSE_BOOTSTRAP_SERVERS", sasl);
      env.put("NETPULSE_KAFKA_CONFIG", config.toString());
      env.put("NETPULSE_PARTITIONS", "2");
      env.put("NETPULSE_HEALTH_FILE", health.toString());
      env.put("NETPULSE_DATA_DIR", dir.resolve("processor").toString());
      env.put("NETPULSE_APPLICATION_ID", "kafka-config-test");
      Process processor = pb.start();
      try {
        Awaitility.await("processor RUNNING (log " + log + ")").atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> Files.exists(health) && Files.readString(health).startsWith("RUNNING "));

        KafkaConnection viaFile = KafkaClientSettingsFile.resolve(sasl, config).orElseThrow();
        try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(viaFile, topics))) {
          dashboard.awaitLiveFeed(Duration.ofSeconds(60));
          CliRun collector = CliRun.of("collector", "agent", "--host", "sasl-host", "--samplers", Sources.SAR_DEV,
              "--bootstrap-servers", sasl, "--kafka-config", config.toString(),
              "--data-dir", dir.resolve("collector").toString(), "--duration", "6");
          assertThat(collector.exit()).as(collector.err()).isZero();

          HttpClient http = HttpClient.newHttpClient();
          Awaitility.await("the dashboard shows sasl-host's rates").atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(500))
              .until(() -> http.send(HttpRequest.newBuilder(URI.create(dashboard.url() + "api/rates/latest")).build(),
                  HttpResponse.BodyHandlers.ofString()).body().contains("\"host\":\"sasl-host\""));
        }
      } finally {
        processor.destroy();
        assertThat(processor.waitFor(60, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(Files.readString(log)).contains("processor running: kafka-config-test on " + sasl + " (")
          .doesNotContain(PASSWORD);
    }
  }

  @Test
  void aWrongPasswordIsOneLineNamingTheFileAndThePasswordNeverShows() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecured(dir.resolve("broker"), 0,
        SecuredListeners.saslPlain(Map.of(USER, PASSWORD)))) {
      Path config = clientProperties("wrong.properties", WRONG_PASSWORD);
      String refused = "netpulse: Kafka at " + kafka.saslBootstrapServers() + " refused authentication (check "
          + "sasl.jaas.config in " + config + "): ";

      Path out = dir.resolve("processor.out");
      Process p = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
          Main.class.getName(), "processor",
          "--bootstrap-servers", kafka.saslBootstrapServers(), "--kafka-config", config.toString(),
          "--data-dir", dir.resolve("data").toString()))
          .redirectErrorStream(true).redirectOutput(out.toFile()).start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("exits by itself").isTrue();
      String text = Files.readString(out);
      assertThat(p.exitValue()).as(text).isEqualTo(2);
      assertThat(text.lines().filter(l -> l.startsWith("netpulse: ")).toList()).as(text).hasSize(1)
          .allMatch(l -> l.startsWith(refused) && l.contains("Invalid username or password"));
      assertThat(text).doesNotContain(WRONG_PASSWORD).doesNotContain("\tat ");

      for (String[] args : List.of(
          new String[] {"dashboard", "--bootstrap-servers", kafka.saslBootstrapServers(), "--kafka-config",
              config.toString()},
          new String[] {"collector", "agent", "--bootstrap-servers", kafka.saslBootstrapServers(), "--kafka-config",
              config.toString(), "--data-dir", dir.resolve("collector").toString(), "--duration", "1"},
          new String[] {"report", "some-plan", "--bootstrap-servers", kafka.saslBootstrapServers(), "--kafka-config",
              config.toString(), "--timeout", "20"})) {
        CliRun r = CliRun.of(args);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith(refused).doesNotContain(WRONG_PASSWORD).doesNotContain("\n");
        assertThat(r.out()).doesNotContain(WRONG_PASSWORD);
      }
    }
  }

  @Test
  void overTlsTheCollectorSendsWithTheFilesTruststoreAndAnotherCertificateIsOneLine() throws Exception {
    SelfSignedTls broker = SelfSignedTls.create(dir.resolve("tls"), "cluster", "ks-" + PASSWORD);
    SelfSignedTls stranger = SelfSignedTls.create(dir.resolve("tls"), "stranger", "ks-" + PASSWORD);
    Topics topics = Topics.defaults();
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecured(dir.resolve("broker"), 0,
        SecuredListeners.ssl(broker.keystore(), broker.password()))) {
      kafka.createTopics(topics, 1);
      String tls = kafka.sslBootstrapServers();
      Path config = dir.resolve("tls.properties");
      Files.writeString(config, String.join("\n",
          "bootstrap.servers=" + tls,
          "security.protocol=SSL",
          "ssl.truststore.location=" + broker.truststore(),
          "ssl.truststore.type=PKCS12",
          "ssl.truststore.password=" + broker.password(), ""));
      CliRun collector = CliRun.of("collector", "agent", "--host", "tls-host", "--samplers", "proc-net-dev",
          "--kafka-config", config.toString(), "--data-dir", dir.resolve("collector").toString(), "--duration", "3");
      assertThat(collector.exit()).as(collector.err()).isZero();
      assertThat(linesOf(kafka, topics.lines(), "tls-host")).as("lines sent over TLS").isPositive();

      Path wrongTrust = dir.resolve("stranger.properties");
      Files.writeString(wrongTrust, String.join("\n",
          "security.protocol=SSL",
          "ssl.truststore.location=" + stranger.truststore(),
          "ssl.truststore.password=" + stranger.password(), ""));
      CliRun refused = CliRun.of("processor", "--bootstrap-servers", tls, "--kafka-config", wrongTrust.toString(),
          "--data-dir", dir.resolve("processor").toString());
      assertThat(refused.exit()).as(refused.err()).isEqualTo(2);
      assertThat(refused.err().strip()).startsWith("netpulse: TLS handshake with Kafka at " + tls
          + " failed (check the ssl.* settings in " + wrongTrust + "): ").doesNotContain("\n")
          .doesNotContain(stranger.password());
    }
  }

  /** Lines of one host on the topic, read through the broker's PLAINTEXT listener. */
  private static long linesOf(EmbeddedKafka kafka, String topic, String host) {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(kafka.connection().clientProperties(),
        new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long count = 0;
      for (int polls = 0; polls < 10; polls++) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          count += host.equals(r.key()) ? 1 : 0;
        }
      }
      return count;
    }
  }

  @Test
  void aKeyNetpulseOwnsIsRefusedNamingFileKeyAndReason() throws Exception {
    Path config = clientProperties("owned.properties", PASSWORD, "enable.idempotence=false");
    CliRun r = CliRun.of("processor", "--bootstrap-servers", "127.0.0.1:1", "--kafka-config", config.toString(),
        "--data-dir", dir.resolve("data").toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("netpulse: " + config + " line 6: enable.idempotence is set by netpulse "
        + "and cannot be changed: netpulse's producers are idempotent with acks=all so that no line is lost or "
        + "written twice");
  }

  @Test
  void anUnknownKeyIsRefusedNamingFileAndLine() throws Exception {
    Path config = clientProperties("typo.properties", PASSWORD, "ssl.truststore.locaton=/etc/kafka/truststore.jks");
    CliRun r = CliRun.of("collector", "agent", "--bootstrap-servers", "127.0.0.1:1", "--kafka-config",
        config.toString(), "--data-dir", dir.resolve("data").toString(), "--duration", "1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("netpulse: " + config + " line 6: unknown Kafka client setting "
        + "'ssl.truststore.locaton' (not a producer, consumer or admin client setting; check its spelling)");
    assertThat(r.err()).doesNotContain(PASSWORD);
  }

  @Test
  void aFileWithoutAnyBootstrapServersIsNotForTheEmbeddedBroker() throws Exception {
    Path config = clientProperties("nobroker.properties", PASSWORD);
    CliRun r = CliRun.of("dashboard", "--kafka-config", config.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("netpulse: --kafka-config " + config + " is for an external Kafka, but "
        + "neither the file (bootstrap.servers) nor --bootstrap-servers names one");
  }
}
