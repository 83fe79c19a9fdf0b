package io.netpulse.cli.topics;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.UserError;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Reads committed records of chosen partitions, from given offsets up to the ends they had when asked (read_committed
 * ends: transaction markers and aborted records are skipped), or on until woken up. No consumer group: nothing is
 * committed, a running netpulse is not disturbed.
 */
final class PartitionReader implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration CALL = Duration.ofMillis(ClusterCalls.CALL_TIMEOUT_MS);

  private final KafkaConnection kafka;
  private final KafkaConsumer<byte[], byte[]> consumer;

  PartitionReader(KafkaConnection kafka) {
    this.kafka = kafka;
    this.consumer = ClusterCalls.consumer(kafka);
  }

  /** The topic's partitions; empty when there is no such topic. */
  List<TopicPartition> partitions(String topic) {
    List<PartitionInfo> infos = call("find topic " + topic, () -> consumer.partitionsFor(topic, CALL));
    return infos == null ? List.of() : infos.stream().map(i -> new TopicPartition(i.topic(), i.partition()))
        .sorted(java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
  }

  Map<TopicPartition, Long> beginnings(List<TopicPartition> partitions) {
    return call("read start offsets", () -> consumer.beginningOffsets(partitions, CALL));
  }

  Map<TopicPartition, Long> ends(List<TopicPartition> partitions) {
    return call("read end offsets", () -> consumer.endOffsets(partitions, CALL));
  }

  /** Every committed record from {@code starts} up to {@code ends}, partition by partition in offset order. */
  void read(Map<TopicPartition, Long> starts, Map<TopicPartition, Long> ends, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
    Map<TopicPartition, Long> left = new HashMap<>();
    starts.forEach((tp, start) -> {
      if (start < ends.get(tp)) {
        left.put(tp, ends.get(tp));
      }
    });
    consumer.assign(starts.keySet());
    starts.forEach(consumer::seek);
    long lastProgress = System.nanoTime();
    while (!left.isEmpty()) {
      var records = call("read records", () -> consumer.poll(POLL));
      for (ConsumerRecord<byte[], byte[]> r : records) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        if (left.containsKey(tp) && r.offset() < left.get(tp)) {
          sink.accept(r);
        }
      }
      int before = left.size();
      left.entrySet().removeIf(e -> call("read positions", () -> consumer.position(e.getKey(), CALL)) >= e.getValue());
      if (!records.isEmpty() || left.size() < before) {
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > CALL.toNanos()) {
        throw new UserError("Kafka at " + kafka.bootstrapServers() + " stopped sending records of "
            + left.keySet().iterator().next().topic() + " for " + CALL.toSeconds() + " s; check that it is up", 1);
      }
    }
    // records fetched past the ends were left out above: a follow goes on from the ends, not from the fetch position
    ends.forEach((tp, end) -> consumer.seek(tp, Math.max(end, starts.get(tp))));
  }

  /** Every record that arrives after what was read, until {@link #wakeup()}. */
  void follow(Consumer<ConsumerRecord<byte[], byte[]>> sink, Runnable afterBatch) {
    try {
      while (true) {
        var records = call("read records", () -> consumer.poll(POLL));
        records.forEach(sink);
        if (!records.isEmpty()) {
          afterBatch.run();
        }
      }
    } catch (WakeupException stopped) {
      // asked to stop (Ctrl-C, SIGTERM)
    }
  }

  /** Makes a running {@link #follow} return; safe from another thread. */
  void wakeup() {
    consumer.wakeup();
  }

  @Override
  public void close() {
    consumer.close();
  }

  private <T> T call(String what, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (WakeupException e) {
      throw e;
    } catch (KafkaException e) {
      throw ClusterCalls.failed(kafka, what, e);
    }
  }
}
