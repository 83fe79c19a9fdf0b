package io.netpulse.processor.store;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.common.Units;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.Json;
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

/** Real broker → RatesToStore → real influxdb-client-java → real QuestDB, read back with SQL. */
@Tag("kafka")
class RatesToStoreTest {

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

  @Test
  void storesEveryRateCommitsOffsetsAndResumesWhereItStopped() throws Exception {
    int perHost = 20;
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 0; i < perHost; i++) {
        send(producer, rate("h1", "eth0", i));
        send(producer, rate("h2", null, i));
      }
      // a record that is not a RateEvent must be skipped, not stop the loop
      producer.send(new ProducerRecord<>(TOPICS.rates(), "h1", "{not json".getBytes(StandardCharsets.UTF_8))).get();
    }

    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse");
        RatesToStore writer = new RatesToStore(kafka.connection(), TOPICS, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> writer.storedRates() == 2L * perHost);
      assertThat(writer.badRecords()).isEqualTo(1);
      awaitCount(2 * perHost);
      // offsets committed up to the end of the topic, the bad record included
      await().atMost(Duration.ofSeconds(10)).until(() -> committedTotal() == 2L * perHost + 1);
    }

    List<Map<String, Object>> h1 = db.sql("SELECT \"interface\", metric, unit, \"window\", mean, min, max, count, "
        + "timestamp FROM netpulse_rate WHERE host = 'h1' ORDER BY timestamp");
    assertThat(h1).hasSize(perHost);
    for (int i = 0; i < perHost; i++) {
      RateEvent expected = rate("h1", "eth0", i);
      assertThat(h1.get(i)).containsEntry("interface", "eth0").containsEntry("metric", "rx_pps")
          .containsEntry("unit", "packets/s").containsEntry("window", "1s")
          .containsEntry("mean", expected.mean()).containsEntry("min", expected.min())
          .containsEntry("max", expected.max()).containsEntry("count", expected.count());
      assertThat(Instant.parse((String) h1.get(i).get("timestamp")).toEpochMilli()).isEqualTo(expected.windowStart());
    }
    assertThat(db.sql("SELECT count() n FROM netpulse_rate WHERE host = 'h2' AND \"interface\" IS NULL"))
        .containsExactly(Map.of("n", (long) perHost));

    // A new writer in the same group starts after the committed offsets: only the new rate is stored.
    try (KafkaProducer<String, byte[]> producer = producer()) {
      send(producer, rate("h1", "eth0", perHost));
    }
    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse");
        RatesToStore writer = new RatesToStore(kafka.connection(), TOPICS, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> writer.storedRates() == 1);
      awaitCount(2 * perHost + 1);
      Thread.sleep(1000); // nothing more may arrive: no replay of what was committed
      assertThat(writer.storedRates()).isEqualTo(1);
    }
    assertThat(db.sql("SELECT count() n FROM netpulse_rate")).containsExactly(Map.of("n", 2L * perHost + 1));
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
        producer.send(new ProducerRecord<>(topics.rates(), "h9", Json.bytes(rate("h9", "eth1", i)))).get();
      }
    }
    try (InfluxStore store = new InfluxStore("http://127.0.0.1:" + port, "t".toCharArray(), "netpulse", "netpulse");
        RatesToStore writer = new RatesToStore(kafka.connection(), topics, store)) {
      writer.start();
      await().atMost(Duration.ofSeconds(40)).until(() -> writer.retriedBatches() >= 1);
      assertThat(writer.storedRates()).isZero();
      assertThat(committed(topics.rates())).as("nothing committed while the store is down").isZero();
      try (EmbeddedQuestDb late = EmbeddedQuestDb.start(dir.resolve("qdb-late"), port)) {
        await().atMost(Duration.ofSeconds(90)).until(() -> writer.storedRates() == 3);
        assertThat(committed(topics.rates())).isEqualTo(3);
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
            late.sql("SELECT count_distinct(timestamp) n FROM netpulse_rate WHERE host = 'h9'"),
            rows -> rows.equals(List.of(Map.of("n", 3L))));
      }
    }
  }

  /**
   * The store is written to, then down for 20 s (several of the writer's re-reads), then back on the same data and
   * port, while rates keep coming (ten series, ten per second, three partitions): every rate is in the store once,
   * and nothing was committed while it was down. (StoreAndCollectorRestartAcceptanceTest keeps it down 60 s, with the whole pipeline.)
   */
  @Test
  void ratesArrivingThroughALongOutageAreAllStoredOnceItIsBack() throws Exception {
    Topics topics = new Topics("long-outage.");
    kafka.createTopics(topics, 3);
    Path data = dir.resolve("qdb-long-outage");
    EmbeddedQuestDb first = EmbeddedQuestDb.start(data, 0);
    int port = first.httpPort();
    int seconds = 0;
    try (first; KafkaProducer<String, byte[]> producer = producer();
        InfluxStore store = new InfluxStore(first.url(), "t".toCharArray(), "netpulse", "netpulse");
        RatesToStore writer = new RatesToStore(kafka.connection(), topics, store)) {
      writer.start();
      seconds = sendTenSeries(producer, topics, seconds, 30);
      int before = seconds * 10;
      await().atMost(Duration.ofSeconds(30)).until(() -> writer.storedRates() == before);
      first.close();
      long downSince = System.currentTimeMillis();
      while (System.currentTimeMillis() < downSince + 20_000) {
        seconds = sendTenSeries(producer, topics, seconds, 1);
        Thread.sleep(100);
      }
      assertThat(committed(topics.rates())).as("nothing more committed while the store is down").isEqualTo(before);
      assertThat(writer.retriedBatches()).as("batches read again during the outage").isGreaterThanOrEqualTo(2);
      try (EmbeddedQuestDb back = EmbeddedQuestDb.start(data, port)) {
        seconds = sendTenSeries(producer, topics, seconds, 20);
        long total = seconds * 10L;
        await().atMost(Duration.ofSeconds(90)).until(() -> committed(topics.rates()) == total);
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() ->
            back.sql("SELECT count() n, count_distinct(timestamp) d FROM netpulse_rate WHERE host = 'h7'"),
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
        RatesToStore writer = new RatesToStore(kafka.connection(), topics, store)) {
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

  /** One rate for each of ten interfaces of h7 per second, from second {@code from}; returns the next second. */
  private static int sendTenSeries(KafkaProducer<String, byte[]> producer, Topics topics, int from, int count)
      throws Exception {
    for (int second = from; second < from + count; second++) {
      for (int k = 0; k < 10; k++) {
        // one at a time, as the other tests send: many in flight to a topic just made once drew the broker's
        // OutOfOrderSequenceException for the idempotent producer, and the sends never completed
        producer.send(new ProducerRecord<>(topics.rates(), "h7/eth" + k, Json.bytes(rate("h7", "eth" + k, second))))
            .get(10, TimeUnit.SECONDS);
      }
    }
    return from + count;
  }

  private static RateEvent rate(String host, String iface, int second) {
    long start = T0 + second * 1000L;
    double mean = 1_000_000.0 + second * 1234.5 + (host.equals("h2") ? 0.25 : 0);
    return new RateEvent(RateEvent.SCHEMA, host, iface, "rx_pps", Units.PACKETS_PER_S, "1s",
        start, start + 1000, mean, mean - 100.5, mean + 200.75, 1 + second % 3);
  }

  private static KafkaProducer<String, byte[]> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringSerializer(), new ByteArraySerializer());
  }

  private static void send(KafkaProducer<String, byte[]> producer, RateEvent rate) throws Exception {
    String key = rate.host() + "/" + (rate.iface() == null ? "-" : rate.iface()) + "/" + rate.metric();
    producer.send(new ProducerRecord<>(TOPICS.rates(), key, Json.bytes(rate))).get();
  }

  private static void awaitCount(long expected) {
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> db.sql("SELECT count() n FROM netpulse_rate"), rows -> rows.equals(List.of(Map.of("n", expected))));
  }

  private static long committedTotal() throws Exception {
    return committed(TOPICS.rates());
  }

  private static long committed(String topic) throws Exception {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(RatesToStore.GROUP_ID)
          .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
      return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
          .mapToLong(e -> e.getValue().offset()).sum();
    }
  }
}
