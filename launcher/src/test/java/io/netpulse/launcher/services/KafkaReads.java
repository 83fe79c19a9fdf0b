package io.netpulse.launcher.services;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reading the pipeline's topics as an operator's tools would: committed records only (the processor writes in
 * exactly-once transactions), end offsets and a group's committed offsets through the Admin client.
 */
final class KafkaReads {

  private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
  private static final int ADMIN_TIMEOUT_S = 30;

  private KafkaReads() {}

  /** End offsets of every partition of {@code topic} as a read_committed reader sees them. */
  static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) {
    Map<TopicPartition, OffsetSpec> latest = partitions(admin, topic).stream()
        .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
    return get(admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all())
        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  /** {@code group}'s committed offsets on {@code topic}'s partitions; 0 where it has committed none. */
  static Map<TopicPartition, Long> committed(Admin admin, String group, String topic) {
    Map<TopicPartition, OffsetAndMetadata> all = get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    Map<TopicPartition, Long> out = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
    for (TopicPartition p : partitions(admin, topic)) {
      OffsetAndMetadata o = all.get(p);
      out.put(p, o == null ? 0L : o.offset());
    }
    return out;
  }

  /** Records {@code end - committed} summed over the partitions (never negative per partition). */
  static long lag(Map<TopicPartition, Long> end, Map<TopicPartition, Long> committed) {
    long lag = 0;
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      lag += Math.max(0, e.getValue() - committed.getOrDefault(e.getKey(), 0L));
    }
    return lag;
  }

  /**
   * Every committed record of {@code topic} below {@code upTo} (per partition), from the beginning, in offset order per
   * partition.
   */
  static Map<Integer, List<ConsumerRecord<String, byte[]>>> read(String bootstrap, String topic,
      Map<TopicPartition, Long> upTo) {
    return read(bootstrap, topic, Map.of(), upTo);
  }

  /** As {@link #read(String, String, Map)}, from {@code from} (per partition; the beginning where it has none). */
  static Map<Integer, List<ConsumerRecord<String, byte[]>>> read(String bootstrap, String topic,
      Map<TopicPartition, Long> from, Map<TopicPartition, Long> upTo) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
    p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
    Map<Integer, List<ConsumerRecord<String, byte[]>>> out = new TreeMap<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> wanted = new ArrayList<>();
      upTo.forEach((tp, end) -> {
        out.put(tp.partition(), new ArrayList<>());
        if (end > from.getOrDefault(tp, 0L)) {
          wanted.add(tp);
        }
      });
      consumer.assign(wanted);
      consumer.seekToBeginning(wanted);
      wanted.stream().filter(from::containsKey).forEach(tp -> consumer.seek(tp, from.get(tp)));
      long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
      Map<TopicPartition, Long> remaining = new HashMap<>();
      wanted.forEach(tp -> remaining.put(tp, upTo.get(tp)));
      while (!remaining.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("could not read " + topic + " up to " + upTo + " within "
              + READ_TIMEOUT.toSeconds() + " s; still missing " + remaining);
        }
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          if (r.offset() < upTo.get(new TopicPartition(r.topic(), r.partition()))) {
            out.get(r.partition()).add(r);
          }
        }
        remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
      }
    }
    return out;
  }

  private static List<TopicPartition> partitions(Admin admin, String topic) {
    return get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions().stream()
        .map(i -> new TopicPartition(topic, i.partition())).toList();
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Kafka admin call failed: " + e, e);
    }
  }
}
