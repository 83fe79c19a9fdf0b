package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.LineRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a lines topic back from the start, for assertions. */
final class TopicLines {

  private TopicLines() {}

  /** All lines on the topic, in partition order, polling until {@code expected} have come or the timeout. */
  static List<LineEvent> readAll(String bootstrapServers, String topic, long expected, Duration timeout) {
    List<LineEvent> lines = new ArrayList<>();
    try (KafkaConsumer<String, List<LineEvent>> consumer = new KafkaConsumer<>(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), LineRecords.deserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (lines.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, List<LineEvent>> r : consumer.poll(Duration.ofMillis(500))) {
          lines.addAll(r.value());
        }
      }
      // anything beyond (duplicates) shows up within one more poll
      consumer.poll(Duration.ofMillis(500)).forEach(r -> lines.addAll(r.value()));
    }
    return lines;
  }

  /** Distinct sequence numbers per source "host/source". */
  static Map<String, TreeSet<Long>> seqBySource(List<LineEvent> lines) {
    Map<String, TreeSet<Long>> seqs = new TreeMap<>();
    for (LineEvent line : lines) {
      seqs.computeIfAbsent(line.host() + "/" + line.source(), k -> new TreeSet<>()).add(line.seq());
    }
    return seqs;
  }

  /** Sequence numbers of one source in topic order, a repeat (a resent line) counted once. */
  static List<Long> firstSeen(List<LineEvent> lines, String host, String source) {
    TreeSet<Long> seen = new TreeSet<>();
    List<Long> order = new ArrayList<>();
    for (LineEvent line : lines) {
      if (line.host().equals(host) && line.source().equals(source) && seen.add(line.seq())) {
        order.add(line.seq());
      }
    }
    return order;
  }
}
