package io.netpulse.processor.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.common.Units;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.StoreWriter;
import io.netpulse.processor.store.WideRecords;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real broker → StoreWriter → real influxdb-client-java → real QuestDB, read back with SQL. */
@Tag("kafka")
class StoreWriterTest {

  static final Topics TOPICS = Topics.defaults();
  static final int PARTITIONS = 2;
  static final long T0 = Instant.parse("2026-11-30T06:00:00Z").toEpochMilli();

  @TempDir static Path dir;
  static EmbeddedKafka kafka;
  static EmbeddedQuestDb db;

  @BeforeAll
  static void startBrokerAndStore() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    kafka.createTopics(TOPICS, PARTITIONS);
    db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0);
  }

  @AfterAll
  static void stop() {
    if (db != null) {
      db.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  /**
   * Rows of {@code metrics} and windows of {@code windows} are stored, each once, with their exact values; a record
   * that cannot be read is skipped; offsets are committed once stored, and a new writer goes on from them.
   */
  @Test
  void storesEveryRowAndWindowCommitsOffsetsAndResumesWhereItStopped() throws Exception {
    int perHost = 20;
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 0; i < perHost; i++) {
        send(producer, TOPICS.metrics(), row("h1", "eth0", i));
        send(producer, TOPICS.windows(), window("h2", "eth1", i));
      }
      // a record that is not a WideSample must be skipped, not stop the loop
      producer.send(new ProducerRecord<>(TOPICS.windows(), "h2", "{not json".getBytes(StandardCharsets.UTF_8))).get();
    }

    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse");
        StoreWriter writer = new StoreWriter(kafka.connection(), TOPICS, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> writer.storedMetrics() == 2L * perHost);
      assertThat(writer.badRecords()).isEqualTo(1);
      awaitCount(2 * perHost);
      // offsets committed up to the end of the topics, the bad record included
      await().atMost(Duration.ofSeconds(10)).until(() -> committedTotal() == 2L * perHost + 1);
    }

    List<Map<String, Object>> h1 = db.sql("SELECT \"interface\", run, source, rx_pps, rx_bps, timestamp FROM net "
        + "WHERE host = 'h1' ORDER BY timestamp");
    assertThat(h1).hasSize(perHost);
    for (int i = 0; i < perHost; i++) {
      WideSample expected = row("h1", "eth0", i);
      assertThat(h1.get(i)).containsEntry("interface", "eth0").containsEntry("run", "run-1")
          .containsEntry("source", Sources.SAR_DEV).containsEntry("rx_pps", expected.fields().get("rx_pps"))
          .containsEntry("rx_bps", expected.fields().get("rx_bps"));
      assertThat(Instant.parse((String) h1.get(i).get("timestamp")).toEpochMilli()).isEqualTo(expected.time());
    }
    List<Map<String, Object>> h2 = db.sql("SELECT \"interface\", run, rx_pps_mean, rx_pps_min, rx_pps_max, count, "
        + "timestamp FROM net_10s WHERE host = 'h2' ORDER BY timestamp");
    assertThat(h2).hasSize(perHost);
    for (int i = 0; i < perHost; i++) {
      WideSample expected = window("h2", "eth1", i);
      assertThat(h2.get(i)).containsEntry("interface", "eth1").containsEntry("run", null)
          .containsEntry("rx_pps_mean", expected.fields().get("rx_pps_mean"))
          .containsEntry("rx_pps_min", expected.fields().get("rx_pps_min"))
          .containsEntry("rx_pps_max", expected.fields().get("rx_pps_max"))
          .containsEntry("count", expected.fields().get("count"));
      assertThat(Instant.parse((String) h2.get(i).get("timestamp")).toEpochMilli()).isEqualTo(expected.time());
    }

    // A new writer in the same group starts after the committed offsets: only the new row is stored.
    try (KafkaProducer<String, byte[]> producer = producer()) {
      send(producer, TOPICS.metrics(), row("h1", "eth0", perHost));
    }
    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse");
        StoreWriter writer = new StoreWriter(kafka.connection(), TOPICS, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> writer.storedMetrics() == 1);
      awaitCount(2 * perHost + 1);
      Thread.sleep(1000); // nothing more may arrive: no replay of what was committed
      assertThat(writer.storedMetrics()).isEqualTo(1);
      assertThat(writer.badRecords()).as("the bad record, committed, is not read again").isZero();
    }
    assertThat(count()).isEqualTo(2L * perHost + 1);
  }

  @Test
  void storeDownMeansNoCommitAndTheBatchIsStoredOnceItIsBack() throws Exception {
    Topics topics = new Topics("outage.");
    kafka.createTopics(topics, 1);
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      port = probe.getLocalPort();
    }
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 0; i < 3; i++) {
        send(producer, topics.metrics(), row("h9", "eth1", i));
      }
      send(producer, topics.windows(), window("h9", "eth1", 0));
    }
    try (InfluxStore store = new InfluxStore("http://127.0.0.1:" + port, "t".toCharArray(), "netpulse", "netpulse");
        StoreWriter writer = new StoreWriter(kafka.connection(), topics, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(40)).until(() -> writer.retriedBatches() >= 1);
      assertThat(writer.storedMetrics()).isZero();
      assertThat(committed(topics.metrics()) + committed(topics.windows()))
          .as("nothing committed while the store is down").isZero();
      try (EmbeddedQuestDb late = EmbeddedQuestDb.start(dir.resolve("qdb-late"), port)) {
        await().atMost(Duration.ofSeconds(90)).until(() -> writer.storedMetrics() == 4);
        assertThat(committed(topics.metrics())).isEqualTo(3);
        assertThat(committed(topics.windows())).isEqualTo(1);
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
            late.sql("SELECT count_distinct(timestamp) n FROM net WHERE host = 'h9'"),
            rows -> rows.equals(List.of(Map.of("n", 3L))));
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
            late.sql("SELECT count() n FROM net_10s WHERE host = 'h9'"), rows -> rows.equals(List.of(Map.of("n", 1L))));
      }
    }
  }

  /**
   * The store is written to, then down for 20 s (several of the writer's re-reads), then back on the same data and
   * port, while rows keep coming (ten hosts' interfaces, one row each per second, three partitions): every row is in
   * the store once, and nothing was committed while it was down. (StoreAndCollectorRestartAcceptanceTest keeps it down
   * 60 s, with the whole pipeline.)
   */
  @Test
  void rowsArrivingThroughALongOutageAreAllStoredOnceItIsBack() throws Exception {
    Topics topics = new Topics("long-outage.");
    kafka.createTopics(topics, 3);
    Path data = dir.resolve("qdb-long-outage");
    EmbeddedQuestDb first = EmbeddedQuestDb.start(data, 0);
    int port = first.httpPort();
    int seconds = 0;
    try (first; KafkaProducer<String, byte[]> producer = producer();
        InfluxStore store = new InfluxStore(first.url(), "t".toCharArray(), "netpulse", "netpulse");
        StoreWriter writer = new StoreWriter(kafka.connection(), topics, store)) {
      writer.start();
      seconds = sendTenSeries(producer, topics, seconds, 30);
      int before = seconds * 10;
      await().atMost(Duration.ofSeconds(30)).until(() -> writer.storedMetrics() == before);
      first.close();
      long downSince = System.currentTimeMillis();
      while (System.currentTimeMillis() < downSince + 20_000) {
        seconds = sendTenSeries(producer, topics, seconds, 1);
        Thread.sleep(100);
      }
      assertThat(committed(topics.metrics())).as("nothing more committed while the store is down").isEqualTo(before);
      assertThat(writer.retriedBatches()).as("batches read again during the outage").isGreaterThanOrEqualTo(2);
      try (EmbeddedQuestDb back = EmbeddedQuestDb.start(data, port)) {
        seconds = sendTenSeries(producer, topics, seconds, 20);
        long total = seconds * 10L;
        await().atMost(Duration.ofSeconds(90)).until(() -> committed(topics.metrics()) == total);
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
            back.sql("SELECT count() n, count_distinct(timestamp) d FROM net WHERE \"interface\" = 'eth0'"),
            rows -> rows.equals(List.of(Map.of("n", total, "d", total / 10))));
      }
    }
  }

  /**
   * {@code metrics}' interface rows and TCP tables land as Telegraf's {@code net} and {@code netstat}, one row each with
   * all its fields; a tool's record is not stored; the same row written twice (a batch read again) is kept once.
   */
  @Test
  void netAndNetstatRowsOfMetricsAreStoredOneRowEachAndToolRecordsAreNot() throws Exception {
    Topics topics = new Topics("wide.");
    kafka.createTopics(topics, 1);
    List<io.netpulse.common.event.Sample> samples = List.of(
        io.netpulse.common.event.Sample.of("rx_pps", 47_176, Units.PACKETS_PER_S, "veth0", T0),
        io.netpulse.common.event.Sample.of("tx_pps", 12, Units.PACKETS_PER_S, "veth0", T0),
        io.netpulse.common.event.Sample.of("rx_bps", 39_990_784, Units.BITS_PER_S, "veth0", T0),
        io.netpulse.common.event.Sample.of("tx_bps", 8_192, Units.BITS_PER_S, "veth0", T0),
        io.netpulse.common.event.Sample.of("rx_pps", 3, Units.PACKETS_PER_S, "lo", T0));
    List<io.netpulse.common.event.WideSample> wide = new java.util.ArrayList<>(io.netpulse.common.event.WideSample.group(
        samples.stream().map(x -> x.withOrigin("w1", "run-9", "sar-dev")).toList(), Sources::measurementOf));
    wide.addAll(io.netpulse.common.event.WideSample.group(List.of(
        io.netpulse.common.event.Sample.of("tcp_estab", 16_378, Units.CONNECTIONS, null, T0)
            .withOrigin("w1", null, "ss-summary"),
        io.netpulse.common.event.Sample.of("rtt_avg_ms", 0.079, "ms", null, T0).withOrigin("w1", "run-9", "ping")), Sources::measurementOf));
    wide.add(wide.get(0)); // again, as a batch read again would
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (io.netpulse.common.event.WideSample w : wide) {
        producer.send(new ProducerRecord<>(topics.metrics(), "w1", Json.bytes(w))).get(10, TimeUnit.SECONDS);
      }
    }
    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse");
        StoreWriter writer = new StoreWriter(kafka.connection(), topics, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> writer.storedMetrics() == 4);
      assertThat(writer.badRecords()).isZero();
      await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
          db.sql("SELECT count() n FROM net WHERE host = 'w1'"), rows -> rows.equals(List.of(Map.of("n", 2L))));
    }
    assertThat(db.sql("SELECT \"interface\", run, source, rx_pps, tx_pps, rx_bps, tx_bps, timestamp FROM net "
        + "WHERE host = 'w1' AND \"interface\" = 'veth0'")).singleElement().satisfies(row -> {
          assertThat(row).containsEntry("run", "run-9").containsEntry("source", "sar-dev")
              .containsEntry("rx_pps", 47_176.0).containsEntry("tx_pps", 12.0).containsEntry("rx_bps", 39_990_784.0)
              .containsEntry("tx_bps", 8_192.0);
          assertThat(Instant.parse((String) row.get("timestamp")).toEpochMilli()).isEqualTo(T0);
        });
    assertThat(db.sql("SELECT tcp_estab FROM netstat WHERE host = 'w1'"))
        .containsExactly(Map.of("tcp_estab", 16_378.0));
  }

  /**
   * One row for eth0 of each of ten hosts h7-0 … h7-9 per second, keyed by host as the processor keys them, from
   * second {@code from}; returns the next second.
   */
  private static int sendTenSeries(KafkaProducer<String, byte[]> producer, Topics topics, int from, int count)
      throws Exception {
    for (int second = from; second < from + count; second++) {
      for (int k = 0; k < 10; k++) {
        // one at a time, as the other tests send: many in flight to a topic just made once drew the broker's
        // OutOfOrderSequenceException for the idempotent producer, and the sends never completed
        send(producer, topics.metrics(), row("h7-" + k, "eth0", second));
      }
    }
    return from + count;
  }

  /** A net row of {@code host}'s interface at second {@code second}, its values distinct per host and second. */
  private static WideSample row(String host, String iface, int second) {
    double pps = 1_000_000.0 + second * 1234.5 + host.hashCode() % 1000 * 0.25;
    return WideRecords.net(host, iface, "run-1", T0 + second * 1000L, pps, pps * 12_000);
  }

  /** The net_10s window {@code index} of a host's interface, fleet monitoring (no run). */
  private static WideSample window(String host, String iface, int index) {
    double mean = 2_000_000.0 + index * 1234.5 + 0.25;
    return WideRecords.window("net_10s", Map.of("host", host, "interface", iface, "source", Sources.SAR_DEV),
        "rx_pps", Units.PACKETS_PER_S, mean, mean - 100.5, mean + 200.75, 1 + index % 10, T0 + index * 10_000L);
  }

  private static KafkaProducer<String, byte[]> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringSerializer(), new ByteArraySerializer());
  }

  /** Sends a row or window keyed by its host, as the processor writes them. */
  private static void send(KafkaProducer<String, byte[]> producer, String topic, WideSample wide) throws Exception {
    producer.send(new ProducerRecord<>(topic, wide.tags().get("host"), Json.bytes(wide))).get(10, TimeUnit.SECONDS);
  }

  /** h1's net rows and h2's net_10s windows in the store. */
  private static long count() {
    return (Long) db.sql("SELECT count() n FROM net WHERE host = 'h1'").get(0).get("n")
        + (Long) db.sql("SELECT count() n FROM net_10s WHERE host = 'h2'").get(0).get("n");
  }

  private static void awaitCount(long expected) {
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(StoreWriterTest::count, n -> n == expected);
  }

  private static long committedTotal() throws Exception {
    return committed(TOPICS.metrics()) + committed(TOPICS.windows());
  }

  private static long committed(String topic) throws Exception {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(StoreWriter.GROUP_ID)
          .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
      return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
          .mapToLong(e -> e.getValue().offset()).sum();
    }
  }
}
