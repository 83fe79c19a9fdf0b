package io.netpulse.bench;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.ProcessorSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The processor's end-to-end throughput against the raw throughput of the same broker in the same
 * run. Raw: produce the lines to a plain topic, then consume them all. Processor: produce the same
 * lines to {@code lines} while the processor runs, until the processor has committed its offsets for
 * all of them (with exactly-once, that commit comes with its outputs: rows and windows). Both move the same records,
 * blocks of lines as the collector writes them; rates are in lines.
 */
final class ProcessorBench {

  static final String APPLICATION_ID = "netpulse-bench";

  /** Figures of one run. */
  /**
   * @param writtenPerLine records the processor wrote per input line to its outputs, changelogs and repartition
   *                       topics (transaction markers included): what it asks of the broker besides reading the line
   */
  record Result(int lines, double rawLinesPerS, double processorLinesPerS, double writtenPerLine,
      List<String> details) {

    /** Records through the broker per second, each written and each read once counted: the processor's. */
    double processorRecordsPerS() {
      return processorLinesPerS * (1 + writtenPerLine);
    }

    /** The same for raw produce-then-consume: each line written once and read once. */
    double rawRecordsPerS() {
      return rawLinesPerS * 2;
    }
    double ratio() {
      return processorLinesPerS / rawLinesPerS;
    }
  }

  private ProcessorBench() {}

  static Result run(Path workDir, int atLeastLines, int hosts, int partitions, ProcessorSettings settings,
      java.io.PrintStream progress) throws Exception {
    List<SarLineGenerator.Line> data = SarLineGenerator.generate(atLeastLines, hosts,
        System.currentTimeMillis() - 3_600_000);
    int lines = SarLineGenerator.lines(data);
    Topics topics = new Topics("bench.");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(workDir.resolve("kafka"), 0)) {
      kafka.createTopics(topics, partitions);
      String raw = "bench.raw";
      try (Admin admin = admin(kafka)) {
        admin.createTopics(List.of(new NewTopic(raw, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
      }
      progress.printf("broker ready; %d sar lines in %d records (a block per host, source and second) from %d hosts,"
          + " %d partitions%n", lines, data.size(), hosts, partitions);
      // clients made and connected before the clock starts, on both sides: what is timed is moving the lines
      double rawRate;
      try (KafkaProducer<String, byte[]> producer = producer(kafka);
          KafkaConsumer<String, byte[]> consumer = consumer(kafka, raw, partitions)) {
        long t0 = System.nanoTime();
        produce(producer, raw, data);
        consumeAll(consumer, data.size());
        rawRate = lines / ((System.nanoTime() - t0) / 1e9);
      }
      progress.printf("raw produce-then-consume: %.0f lines/s%n", rawRate);

      try (ProcessorApp app = ProcessorApp.start(kafka.connection(), topics, workDir.resolve("streams"),
          APPLICATION_ID, settings)) {
        if (!app.awaitRunning(Duration.ofSeconds(90))) {
          throw new IllegalStateException("the processor did not reach RUNNING within 90 s");
        }
        double processorRate;
        try (KafkaProducer<String, byte[]> producer = producer(kafka)) {
          producer.partitionsFor(topics.lines());
          long t1 = System.nanoTime();
          produce(producer, topics.lines(), data);
          awaitCommitted(kafka, topics.lines(), Duration.ofMinutes(10));
          processorRate = lines / ((System.nanoTime() - t1) / 1e9);
        }
        List<String> details = new java.util.ArrayList<>(StreamsFigures.metrics(app.metrics()));
        double written;
        try (Admin admin = admin(kafka)) {
          details.addAll(StreamsFigures.recordsPerLine(admin, "bench.", APPLICATION_ID, lines));
          written = StreamsFigures.endOffsets(admin, "bench.", APPLICATION_ID).entrySet().stream()
              .filter(e -> !e.getKey().equals(topics.lines()) && !e.getKey().equals(raw))
              .mapToLong(Map.Entry::getValue).sum() / (double) lines;
        }
        return new Result(lines, rawRate, processorRate, written, details);
      }
    }
  }

  private static Admin admin(EmbeddedKafka kafka) {
    return Admin.create(kafka.connection().clientProperties());
  }

  private static KafkaProducer<String, byte[]> producer(EmbeddedKafka kafka) {
    Map<String, Object> p = new java.util.HashMap<>();
    // as the collector's sink does: small batching delay, compressed batches
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
    return new KafkaProducer<>(kafka.connection().clientProperties(p), new StringSerializer(), new ByteArraySerializer());
  }

  private static void produce(KafkaProducer<String, byte[]> producer, String topic, List<SarLineGenerator.Line> data) {
    for (SarLineGenerator.Line line : data) {
      producer.send(new ProducerRecord<>(topic, line.host(), line.value()));
    }
    producer.flush();
  }

  /** A consumer of every partition of {@code topic} from the start, assigned (no group to join) and connected. */
  private static KafkaConsumer<String, byte[]> consumer(EmbeddedKafka kafka, String topic, int partitions) {
    Map<String, Object> p = new java.util.HashMap<>();
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(kafka.connection().clientProperties(p), new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> all = new java.util.ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      all.add(new TopicPartition(topic, i));
    }
    c.assign(all);
    c.seekToBeginning(all);
    all.forEach(c::position); // resolves the start offsets now, not on the clock
    return c;
  }

  private static void consumeAll(KafkaConsumer<String, byte[]> c, int expected) {
    long n = 0;
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (n < expected) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("raw consumer read " + n + " of " + expected + " records in 5 min");
      }
      n += c.poll(Duration.ofMillis(200)).count();
    }
  }

  /** Waits until the processor's committed offsets on {@code topic} reach the end of every partition. */
  private static void awaitCommitted(EmbeddedKafka kafka, String topic, Duration timeout) throws Exception {
    try (Admin admin = admin(kafka)) {
      Set<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
          .partitions().stream().map(pi -> new TopicPartition(topic, pi.partition())).collect(Collectors.toSet());
      Map<TopicPartition, Long> ends = admin.listOffsets(partitions.stream()
              .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()))).all().get()
          .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(APPLICATION_ID).partitionsToOffsetAndMetadata().get();
        if (partitions.stream().allMatch(tp -> committed.get(tp) != null && committed.get(tp).offset() >= ends.get(tp))) {
          return;
        }
        Thread.sleep(20);
      }
      throw new IllegalStateException("the processor did not commit all lines within " + timeout.toSeconds() + " s");
    }
  }
}
