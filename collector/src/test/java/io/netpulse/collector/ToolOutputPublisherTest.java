package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.json.JsonSerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real tool's output, published and read back from the tool-output topic. */
@Tag("kafka")
class ToolOutputPublisherTest {

  @TempDir Path dir;

  @Test
  void toolOutputIsStoredKeyedByRunAndOversizedTextKeepsItsEnd() throws Exception {
    Topics topics = Topics.defaults();
    long started = System.currentTimeMillis();
    Process ping = new ProcessBuilder("ping", "-c", "2", "-i", "0.2", "127.0.0.1").start();
    String stdout = new String(ping.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = ping.waitFor();
    String huge = "x".repeat(ToolOutputPublisher.MAX_TEXT_CHARS) + "\nrtt summary line";
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
      kafka.createTopics(topics, 2);
      try (ToolOutputPublisher publisher = new ToolOutputPublisher(kafka.connection(), topics.toolOutput())) {
        publisher.publish(ToolOutput.of("run-1", "ping-latency", 1, "sut", "client", "ping", 0,
            "ping -c 2 -i 0.2 127.0.0.1", exit, stdout, "", started, System.currentTimeMillis()), Duration.ofSeconds(30));
        publisher.publish(ToolOutput.of("run-1", "ping-latency", 2, "sut", "client", "ping", 0, "ping", 0, huge, null,
            started, System.currentTimeMillis()), Duration.ofSeconds(30));
      }
      List<ConsumerRecord<String, ToolOutput>> records = new ArrayList<>();
      try (KafkaConsumer<String, ToolOutput> consumer = new KafkaConsumer<>(
          Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringDeserializer(),
          JsonSerde.of(ToolOutput.class).deserializer())) {
        List<TopicPartition> parts = consumer.partitionsFor(topics.toolOutput()).stream()
            .map(p -> new TopicPartition(topics.toolOutput(), p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (records.size() < 2 && System.nanoTime() < deadline) {
          consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
      }
      assertThat(records).hasSize(2).allMatch(r -> r.key().equals("run-1"));
      ToolOutput first = records.get(0).value();
      assertThat(first.exit()).isZero();
      assertThat(first.stdout()).contains("2 packets transmitted, 2 received").contains("rtt min/avg/max/mdev");
      assertThat(first.schema()).isEqualTo(ToolOutput.SCHEMA);
      ToolOutput second = records.get(1).value();
      assertThat(second.stdout()).endsWith("\nrtt summary line").startsWith("[first ")
          .hasSizeLessThan(ToolOutputPublisher.MAX_TEXT_CHARS + 40);
    }
  }
}
