package io.netpulse.launcher.report;

import io.netpulse.common.json.Json;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads one topic as it is now: from the beginning (or from a time) up to the end offsets taken when
 * reading starts, read_committed (only what the processor's transactions committed). No consumer group:
 * a report only looks, it must never take partitions from the processor or commit offsets.
 */
public final class TopicSnapshot {

  private final KafkaConnection kafka;
  private final String bootstrapServers;
  private final Duration timeout;
  private int unreadable;

  public TopicSnapshot(KafkaConnection kafka, Duration timeout) {
    this.kafka = kafka;
    this.bootstrapServers = kafka.bootstrapServers();
    this.timeout = timeout;
  }

  /** Every record of {@code topic}; tombstones arrive with a null value. A missing topic reads as empty. */
  public <V> void read(String topic, Class<V> type, BiConsumer<String, V> each) {
    read(topic, type, -1, Long.MAX_VALUE, each);
  }

  /**
   * The records of {@code topic} stamped from {@code fromMs} (epoch ms; -1: from the beginning) until a
   * partition shows one stamped after {@code untilMs}: rates are a long topic, stamped with their window's
   * start and written in about that order, and a report needs only its runs' seconds.
   */
  public <V> void read(String topic, Class<V> type, long fromMs, long untilMs, BiConsumer<String, V> each) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(properties(), new StringDeserializer(),
        new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.listTopics(timeout).containsKey(topic)
          ? consumer.partitionsFor(topic, timeout).stream().map(p -> new TopicPartition(topic, p.partition())).toList()
          : List.of();
      if (partitions.isEmpty()) {
        return;
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout); // read_committed: the stable end
      seekToStart(consumer, partitions, fromMs);
      Map<TopicPartition, Long> left = new HashMap<>(end);
      left.entrySet().removeIf(e -> consumer.position(e.getKey(), timeout) >= e.getValue());
      while (!left.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new UserError("reading " + topic + " from Kafka at " + bootstrapServers + " took longer than "
              + timeout.toSeconds() + " s; give more time with --timeout");
        }
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          TopicPartition tp = new TopicPartition(r.topic(), r.partition());
          if (r.timestamp() > untilMs && left.remove(tp) != null) {
            consumer.pause(List.of(tp)); // past the time wanted: the rest of this partition is later still
          }
          if (left.containsKey(tp) && r.offset() < end.get(tp)) {
            accept(r, type, each);
          }
        }
        left.entrySet().removeIf(e -> consumer.position(e.getKey(), timeout) >= e.getValue());
      }
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      throw new UserError("cannot read " + topic + " from Kafka at " + bootstrapServers + " within "
          + timeout.toSeconds() + " s: check --bootstrap-servers and that Kafka is up (or give more --timeout)");
    } catch (KafkaException e) {
      UserError refused = KafkaCheck.refusal(kafka, e);
      if (refused != null) {
        throw refused;
      }
      throw new UserError("cannot read " + topic + " from Kafka at " + bootstrapServers + ": " + e.getMessage());
    }
  }

  /** A record that is not the event it should be (a foreign producer) is skipped and counted, not fatal. */
  private <V> void accept(ConsumerRecord<String, byte[]> r, Class<V> type, BiConsumer<String, V> each) {
    if (r.value() == null) {
      each.accept(r.key(), null);
      return;
    }
    V value;
    try {
      value = Json.read(r.value(), type);
    } catch (java.io.IOException e) {
      unreadable++;
      return;
    }
    each.accept(r.key(), value);
  }

  /** Records skipped because they were not JSON of the topic's event. */
  public int unreadable() {
    return unreadable;
  }

  private static void seekToStart(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
      long fromMs) {
    if (fromMs < 0) {
      consumer.seekToBeginning(partitions);
      return;
    }
    Map<TopicPartition, Long> when = new HashMap<>();
    partitions.forEach(p -> when.put(p, fromMs));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(when);
    for (TopicPartition p : partitions) {
      OffsetAndTimestamp at = found.get(p);
      if (at == null) {
        consumer.seekToEnd(List.of(p)); // nothing that late in this partition
      } else {
        consumer.seek(p, at.offset());
      }
    }
  }

  private Properties properties() {
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "netpulse-report-" + UUID.randomUUID());
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    return kafka.clientProperties(p);
  }
}
