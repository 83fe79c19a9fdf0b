package io.netpulse.cli.command;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.LineRecords;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The lines topic read back as the collector tests check it: every partition from its first record, no group (the
 * tests read what is there, and must not share offsets with another reader).
 */
final class LinesTopic {

  private LinesTopic() {}

  /** A consumer assigned every partition of {@code topic}, positioned at the beginning; the caller closes it. */
  static KafkaConsumer<String, List<LineEvent>> fromBeginning(String bootstrap, String topic) {
    KafkaConsumer<String, List<LineEvent>> consumer = new KafkaConsumer<>(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringDeserializer(),
        LineRecords.deserializer());
    try {
      List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      return consumer;
    } catch (RuntimeException e) {
      consumer.close();
      throw e;
    }
  }
}
