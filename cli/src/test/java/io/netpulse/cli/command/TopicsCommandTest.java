package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse topics lag|tail|list} against a real broker holding records written here: plain ones, committed
 * and aborted transactions (as the processor writes), and a group's committed offsets. The figures printed are
 * asserted, not only that something was printed.
 */
@Tag("kafka")
class TopicsCommandTest {

  static final Topics TOPICS = new Topics("tpc.");
  static final String GROUP = "tpc-group";
  /**
   * Record timestamps are T0 + the test's small numbers: records stamped in 1970 fall to the broker's time retention
   * (7 days) at its first retention check, 30 s after it starts, which a loaded machine reached before the tests ran.
   */
  static final long T0 = System.currentTimeMillis() / 1000 * 1000 - 60_000;

  @TempDir static Path dir;
  static EmbeddedKafka kafka;

  @BeforeAll
  static void records() throws Exception {
    kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
    kafka.createTopics(TOPICS, 3);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      // lines: 3 in partition 0, 2 in partition 1; timestamps interleave across the partitions
      send(producer, TOPICS.lines(), 0, 1_000, "h1", "{\"line\":\"a\"}");
      send(producer, TOPICS.lines(), 1, 1_500, "h2", "{\"line\":\"b\"}");
      send(producer, TOPICS.lines(), 0, 2_000, "h1", "{\"line\":\"c\"}");
      send(producer, TOPICS.lines(), 1, 2_500, "h2", "not json at all");
      send(producer, TOPICS.lines(), 0, 3_000, "h1", "{\"line\":\"e\"}");
      send(producer, TOPICS.steady(), 0, 5_000, "r1", "{\"metric\":\"rx_bps\"}"); // followed below
    }
    // dlq as the processor writes it: in transactions; one committed with two records, one aborted
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tpc-test");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      send(producer, TOPICS.dlq(), 0, 4_000, "h1", "{\"error\":\"no parser for line 1\"}");
      send(producer, TOPICS.dlq(), 0, 4_001, "h1", "{\"error\":\"no parser for line 2\"}");
      producer.commitTransaction();
      producer.beginTransaction();
      send(producer, TOPICS.dlq(), 0, 4_002, "h1", "{\"error\":\"aborted, never visible\"}");
      producer.abortTransaction();
    }
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
        new StringDeserializer())) {
      consumer.commitSync(Map.of(new TopicPartition(TOPICS.lines(), 0), new OffsetAndMetadata(1),
          new TopicPartition(TOPICS.lines(), 1), new OffsetAndMetadata(2)));
    }
  }

  private static void send(KafkaProducer<String, String> producer, String topic, int partition, long ts, String key,
      String value) throws Exception {
    producer.send(new ProducerRecord<>(topic, partition, T0 + ts, key, value)).get(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static CliRun topics(String... args) {
    List<String> all = new ArrayList<>(List.of("topics"));
    all.addAll(List.of(args));
    all.addAll(List.of("--bootstrap-servers", kafka.bootstrapServers()));
    return CliRun.of(all.toArray(String[]::new));
  }

  /** The printed table's cells: columns are at least two spaces apart. */
  private static List<List<String>> cells(String out) {
    return out.lines().map(l -> List.of(l.strip().split(" {2,}"))).toList();
  }

  private static List<JsonNode> jsonLines(String out) throws Exception {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : out.strip().split("\n")) {
      nodes.add(Json.mapper().readTree(line));
    }
    return nodes;
  }

  @Test
  void listCountsCommittedRecordsNotTransactionMarkersOrAbortedRecords() {
    CliRun r = topics("list", "--topic-prefix", TOPICS.prefix());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(cells(r.out())).contains(
        List.of("TOPIC", "PARTITIONS", "RECORDS"),
        List.of("tpc.lines", "3", "5"),
        List.of("tpc.results", "3", "0 (compacted)"),
        List.of("tpc.dlq", "3", "2"));
  }

  @Test
  void lagIsTheEndMinusTheCommittedOffsetPerPartition() {
    CliRun r = topics("lag", "--group", GROUP);
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(cells(r.out())).containsExactly(
        List.of("GROUP", "TOPIC", "PARTITION", "COMMITTED", "END", "LAG"),
        List.of("tpc-group", "tpc.lines", "0", "1", "3", "2"),
        List.of("tpc-group", "tpc.lines", "1", "2", "2", "0"),
        List.of(""),
        List.of("tpc-group: lag 2 over 2 partition(s); Empty, 0 member(s)"));
  }

  @Test
  void lagShowsNetpulsesGroupsByDefault() {
    CliRun r = topics("lag");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().lines().toList()).containsExactly(
        "netpulse-processor: no committed offsets (no such group; not started yet, or the group has another name: "
            + "--group)",
        "netpulse-store: no committed offsets (no such group; not started yet, or the group has another name: "
            + "--group)");
  }

  @Test
  void tailPrintsTheLastRecordsByTimestampAcrossPartitions() throws Exception {
    CliRun r = topics("tail", TOPICS.lines(), "-n", "2");
    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> lines = jsonLines(r.out());
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).path("timestamp").asLong()).isEqualTo(T0 + 2_500);
    assertThat(lines.get(0).path("partition").asInt()).isEqualTo(1);
    assertThat(lines.get(0).path("offset").asLong()).isEqualTo(1);
    assertThat(lines.get(0).path("key").asText()).isEqualTo("h2");
    assertThat(lines.get(0).path("value").isTextual()).isTrue();
    assertThat(lines.get(0).path("value").asText()).isEqualTo("not json at all");
    assertThat(lines.get(1).path("timestamp").asLong()).isEqualTo(T0 + 3_000);
    assertThat(lines.get(1).path("value").path("line").asText()).isEqualTo("e");
  }

  @Test
  void tailFromTheBeginningReadsEveryCommittedRecordOfAShortName() throws Exception {
    CliRun all = topics("tail", "lines", "--from-beginning", "--topic-prefix", TOPICS.prefix());
    assertThat(all.exit()).as(all.err()).isZero();
    assertThat(jsonLines(all.out())).hasSize(5).allMatch(n -> n.path("topic").asText().equals("tpc.lines"));

    CliRun dlq = topics("tail", "dlq", "--from-beginning", "--topic-prefix", TOPICS.prefix());
    assertThat(jsonLines(dlq.out())).extracting(n -> n.path("value").path("error").asText())
        .containsExactly("no parser for line 1", "no parser for line 2");
  }

  @Test
  void tailUsageErrorsAreOneLine() {
    CliRun none = topics("tail", "nope");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err().strip()).startsWith("netpulse: no topic nope on Kafka at " + kafka.bootstrapServers())
        .doesNotContain("\n");

    CliRun both = topics("tail", "lines", "-n", "1", "--from-beginning");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err().strip()).isEqualTo("netpulse: topics tail: give --from-beginning or -n N, not both");
  }

  @Test
  void anUnreachableClusterIsOneLineAndExit1() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    CliRun r = CliRun.of("topics", "list", "--bootstrap-servers", "127.0.0.1:" + closedPort);
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip()).isEqualTo("netpulse: cannot reach Kafka at 127.0.0.1:" + closedPort + " within 10 s; "
        + "check --bootstrap-servers (NETPULSE_BOOTSTRAP_SERVERS) and that Kafka is up");
  }

  /** --follow in its own JVM, stopped as a user stops it (SIGTERM): it prints what arrives, then ends quietly. */
  @Test
  void tailFollowPrintsNewRecordsUntilStopped() throws Exception {
    Path out = dir.resolve("follow.out");
    Process p = ChildNetpulse.start(out, Map.of(), "topics", "tail", "steady", "-n", "1", "--follow",
        "--topic-prefix", TOPICS.prefix(), "--bootstrap-servers", kafka.bootstrapServers());
    try {
      // the last record printed: the ends were read, anything sent now is new
      Awaitility.await("the last record (" + out + ")").atMost(Duration.ofSeconds(60))
          .until(() -> Files.readString(out).contains("\"timestamp\":" + (T0 + 5_000)));
      Properties props = new Properties();
      props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
        send(producer, TOPICS.steady(), 2, 9_000, "r2", "{\"metric\":\"new\"}");
      }
      Awaitility.await("the new record").atMost(Duration.ofSeconds(60))
          .until(() -> Files.readString(out).contains("\"metric\":\"new\""));
      p.destroy();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("ends on SIGTERM").isTrue();
      assertThat(Files.readString(out).strip().split("\n")).hasSize(2);
      assertThat(Files.readString(out)).doesNotContain("Exception", "\tat ");
    } finally {
      ChildNetpulse.stop(p);
    }
  }
}
