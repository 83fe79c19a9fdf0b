package io.netpulse.processor.it;

import io.netpulse.testbed.ChildJava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.QuestDbStoreSchema;
import io.netpulse.processor.store.StoreWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor with real parts: embedded KRaft broker, Kafka Streams with exactly_once_v2, embedded
 * QuestDB written through influxdb-client-java. A recorded run is replayed through the topics.
 */
@Tag("kafka")
class ProcessorIntegrationTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final String KEY = ResultEvent.key(RecordedReplay.PLAN, null, RecordedReplay.TEST, "rx_bps");

  private static final Path CHILD_LOGS = Path.of("target", "processor-it");
  private static final String LOG_PREFIX = String.valueOf(ProcessHandle.current().pid());

  @TempDir Path dir;

  @Test
  void aReplayedRunGivesTheExpectedRepetitionValuesAndMeanInResultsAndInTheStore() throws Exception {
    RecordedReplay replay = new RecordedReplay(TOPICS);
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedQuestDb questDb = EmbeddedQuestDb.start(dir.resolve("questdb"), 0)) {
      kafka.createTopics(TOPICS, 2);
      QuestDbStoreSchema.apply(questDb::sql);
      try (ProcessorApp processor = ProcessorApp.start(kafka.connection(), TOPICS, dir.resolve("streams"), "it-one");
          InfluxStore store = new InfluxStore(questDb.url(), "unused".toCharArray(), "netpulse", "netpulse");
          StoreWriter writer = new StoreWriter(kafka.connection(), TOPICS, store)) {
        writer.start();
        assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();
        produce(kafka, fullReplay(replay, 0));
        ResultEvent result = awaitResult(kafka);
        assertExpected(result);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).untilAsserted(() ->
            assertThat(questDb.sql("select mean, stddev, ci95, n, rep_1, rep_2, rep_3 from netpulse_result"
                + " where plan = '" + RecordedReplay.PLAN + "' and metric = 'rx_bps' and n = 3")).isNotEmpty());
        Map<String, Object> row = questDb.sql("select mean, ci95, rep_1, rep_2, rep_3 from netpulse_result"
            + " where plan = '" + RecordedReplay.PLAN + "' and metric = 'rx_bps' and n = 3").get(0);
        assertThat(((Number) row.get("mean")).doubleValue()).isCloseTo(result.mean(), within(1e-3));
        assertThat(((Number) row.get("ci95")).doubleValue()).isCloseTo(result.ci95(), within(1e-3));
        for (int r = 1; r <= 3; r++) {
          assertThat(((Number) row.get("rep_" + r)).doubleValue())
              .isCloseTo(RecordedReplay.expectedValue(r), within(1e-3));
        }
        // and the SUT's per-second rows reached the store too, each interface's second once with its exact values
        // (sar's Average: rows, a summary stamped with the second they were read in, must not replace that second's)
        Map<String, Double> expectedRows = RecordedReplay.rxBpsByInterfaceAndTime();
        assertThat(expectedRows).isNotEmpty();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).untilAsserted(() ->
            assertThat(questDb.sql("select count() n from net where host = 'sut' and run = '"
                + RecordedReplay.runId(1) + "'").get(0).get("n")).isEqualTo((long) expectedRows.size()));
        Map<String, Double> stored = new HashMap<>();
        for (Map<String, Object> net : questDb.sql("select \"interface\", rx_bps, timestamp from net"
            + " where host = 'sut' and run = '" + RecordedReplay.runId(1) + "'")) {
          stored.put(net.get("interface") + "@" + java.time.Instant.parse((String) net.get("timestamp")).toEpochMilli(),
              ((Number) net.get("rx_bps")).doubleValue());
        }
        assertThat(stored).isEqualTo(expectedRows);
        // and their 10-s windows, each the mean of the per-second rows it covers
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).untilAsserted(() ->
            assertThat(questDb.sql("select count() n from net_10s where host = 'sut' and count = 10").get(0).get("n"))
                .isNotEqualTo(0L));
        Map<String, Object> window = questDb.sql("select \"interface\", run, rx_bps_mean, rx_bps_max, timestamp from net_10s"
            + " where host = 'sut' and count = 10 limit 1").get(0);
        String from = (String) window.get("timestamp");
        Map<String, Object> seconds = questDb.sql("select avg(rx_bps) mean, max(rx_bps) max, count() n from net"
            + " where host = 'sut' and \"interface\" = '" + window.get("interface") + "' and run = '" + window.get("run")
            + "' and timestamp >= '" + from + "' and timestamp < dateadd('s', 10, '" + from + "')").get(0);
        assertThat(seconds.get("n")).isEqualTo(10L);
        assertThat(((Number) window.get("rx_bps_mean")).doubleValue())
            .isCloseTo(((Number) seconds.get("mean")).doubleValue(), within(1e-6));
        assertThat(window.get("rx_bps_max")).isEqualTo(seconds.get("max"));
      }
    }
  }

  @Test
  void twoInstancesWithOneApplicationIdSplitThePartitionsAndGiveTheSameResult() throws Exception {
    RecordedReplay replay = new RecordedReplay(TOPICS);
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      kafka.createTopics(TOPICS, 2);
      try (ProcessorApp a = ProcessorApp.start(kafka.connection(), TOPICS, dir.resolve("a"), "it-two");
          ProcessorApp b = ProcessorApp.start(kafka.connection(), TOPICS, dir.resolve("b"), "it-two")) {
        assertThat(a.awaitRunning(Duration.ofSeconds(60))).isTrue();
        assertThat(b.awaitRunning(Duration.ofSeconds(60))).isTrue();
        produce(kafka, fullReplay(replay, 20));
        assertExpected(awaitResult(kafka));
        List<TopicPartition> fromA = new ArrayList<>(a.assignedPartitions());
        List<TopicPartition> fromB = new ArrayList<>(b.assignedPartitions());
        assertThat(fromA).isNotEmpty();
        assertThat(fromB).isNotEmpty();
        assertThat(fromA).doesNotContainAnyElementsOf(fromB);
        assertThat(fromA.stream().filter(tp -> tp.topic().equals(TOPICS.lines())).count()
            + fromB.stream().filter(tp -> tp.topic().equals(TOPICS.lines())).count()).isEqualTo(2);
      }
    }
  }

  @Test
  void killedMidReplayAndRestartedEachRepetitionAndEachLineCountsOnce() throws Exception {
    RecordedReplay replay = new RecordedReplay(TOPICS);
    int background = 60;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      kafka.createTopics(TOPICS, 2);
      List<ProducerRecord<String, byte[]>> all = fullReplay(replay, background);
      int half = all.size() / 2;
      produce(kafka, all.subList(0, half));
      Process first = child(kafka, dir.resolve("child-1"));
      try {
        // kill once the processor has committed part of the work, not all of it
        long expectedRows = (long) RecordedReplay.rowsPerHost() * (background + 3);
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
            .until(() -> count(kafka, TOPICS.metrics()) > 0);
        produce(kafka, all.subList(half, all.size()));
        Thread.sleep(300);
        long before = count(kafka, TOPICS.metrics());
        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no clean close, no commit
        System.out.printf("killed with %d of %d rows committed%n", before, expectedRows);
        assertThat(before).isLessThan(expectedRows);

        Process second = child(kafka, dir.resolve("child-2"));
        try {
          assertExpected(awaitResult(kafka));
          await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
              .until(() -> count(kafka, TOPICS.metrics()) >= expectedRows);
          Thread.sleep(1000);
          assertThat(count(kafka, TOPICS.metrics())).isEqualTo(expectedRows);
        } finally {
          second.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } finally {
        first.destroyForcibly();
      }
    }
  }

  private static List<ProducerRecord<String, byte[]>> fullReplay(RecordedReplay replay, int backgroundHosts) {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
    for (int r = 1; r <= 3; r++) {
      out.add(replay.measuring(r));
    }
    for (int h = 0; h < backgroundHosts; h++) {
      out.addAll(replay.lines("fleet-" + h, null));
    }
    for (int r = 1; r <= 3; r++) {
      out.addAll(replay.lines("sut", RecordedReplay.runId(r)));
      out.add(replay.done(r));
    }
    return out;
  }

  private static void assertExpected(ResultEvent result) {
    assertThat(result.n()).isEqualTo(3);
    assertThat(result.values()).containsOnlyKeys(1, 2, 3);
    double sum = 0;
    for (int r = 1; r <= 3; r++) {
      assertThat(result.values().get(r)).isCloseTo(RecordedReplay.expectedValue(r), within(1e-3));
      sum += RecordedReplay.expectedValue(r);
    }
    assertThat(result.mean()).isCloseTo(sum / 3, within(1e-3));
    assertThat(result.hosts()).containsExactly("sut");
  }

  /**
   * A processor in a JVM of its own. Its log is kept under target/processor-it (not in the temporary directory,
   * which is deleted), so that a failed run can be read afterwards.
   */
  private Process child(EmbeddedKafka kafka, Path stateDir) throws Exception {
    Path log = CHILD_LOGS.resolve(LOG_PREFIX + "-" + stateDir.getFileName() + ".log");
    Files.createDirectories(CHILD_LOGS);
    Process p = new ProcessBuilder(ChildJava.command("-Xmx256m", "-cp", System.getProperty("java.class.path"),
        ProcessorChild.class.getName(),
        kafka.bootstrapServers(), stateDir.toString(), "it-eos"))
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    System.out.println("child processor " + p.pid() + " logs to " + log);
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
        !p.isAlive() || Files.readString(log).contains("RUNNING"));
    assertThat(p.isAlive()).as("child processor is running").isTrue();
    return p;
  }

  private static void produce(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      records.forEach(producer::send);
    }
  }

  private static KafkaConsumer<String, byte[]> consumer(EmbeddedKafka kafka) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
  }

  /** Committed records on a topic now (read_committed: aborted transactions are not counted). */
  private static long count(EmbeddedKafka kafka, String topic) {
    try (KafkaConsumer<String, byte[]> c = consumer(kafka)) {
      List<TopicPartition> parts = c.partitionsFor(topic).stream()
          .map(pi -> new TopicPartition(topic, pi.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long n = 0;
      long deadline = System.currentTimeMillis() + 20_000;
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.currentTimeMillis() < deadline) {
        n += c.poll(Duration.ofMillis(200)).count();
      }
      return n;
    }
  }

  /**
   * Waits for the result of the replayed plan/test/metric to hold all three repetitions' expected
   * values. Lines and lifecycle travel on different topics, so a repetition may first be valued on
   * part of its window and corrected when the rest of its samples arrive: the result converges.
   */
  private static ResultEvent awaitResult(EmbeddedKafka kafka) {
    JsonSerde<ResultEvent> serde = JsonSerde.of(ResultEvent.class);
    Map<String, ResultEvent> latest = new HashMap<>();
    try (KafkaConsumer<String, byte[]> c = consumer(kafka)) {
      c.subscribe(List.of(TOPICS.results()));
      // generous: a restarted processor replays its changelogs first, and on a loaded 2-core machine that is slow
      try {
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ZERO).until(() -> {
          c.poll(Duration.ofMillis(200)).forEach(r -> latest.put(r.key(), serde.deserialize(r.topic(), r.value())));
          ResultEvent e = latest.get(KEY);
          return e != null && e.n() == 3 && java.util.stream.IntStream.rangeClosed(1, 3).allMatch(r ->
              e.values().containsKey(r) && Math.abs(e.values().get(r) - RecordedReplay.expectedValue(r)) < 1e-3);
        });
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        // say whether no result came or a wrong one did: the two are different faults
        throw new AssertionError("no converged result for " + KEY + " in 180 s; latest: " + latest.get(KEY)
            + "; results seen for " + latest.keySet() + "; expected " + RecordedReplay.expectedValue(1) + ", "
            + RecordedReplay.expectedValue(2) + ", " + RecordedReplay.expectedValue(3), e);
      }
    }
    return latest.get(KEY);
  }
}
