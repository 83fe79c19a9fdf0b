package io.netpulse.testbed.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.Topics;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
class EmbeddedKafkaTest {

  @TempDir Path dataDir;

  @Test
  void createsTopicsAndKeepsRecordsAcrossRestart() throws Exception {
    Topics topics = Topics.defaults();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dataDir, 0)) {
      kafka.createTopics(topics, 3);
      try (Admin admin = admin(kafka)) {
        assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).containsAll(topics.all());
        assertThat(admin.describeTopics(List.of(topics.lines())).allTopicNames().get()
                .get(topics.lines()).partitions()).hasSize(3);
        ConfigResource results = new ConfigResource(ConfigResource.Type.TOPIC, topics.results());
        Config config = admin.describeConfigs(List.of(results)).all().get().get(results);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
        ConfigResource latest = new ConfigResource(ConfigResource.Type.TOPIC, topics.resultsLatest());
        assertThat(admin.describeConfigs(List.of(latest)).all().get().get(latest).get("cleanup.policy").value())
            .isEqualTo("compact");
      }
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
          ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
        producer.send(new ProducerRecord<>(topics.lines(), "sut", "kept")).get();
      }
    }
    // same data dir: the broker comes back with its topics and records
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dataDir, 0)) {
      kafka.createTopics(topics, 3); // no-op: they exist
      assertThat(readAll(kafka, topics.lines())).containsExactly("kept");
    }
  }

  @Test
  void portInUseIsAOneLineErrorNamingTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(() -> EmbeddedKafka.start(dataDir, taken.getLocalPort()))
          .isInstanceOf(EmbeddedStartException.class)
          .hasMessage("port " + taken.getLocalPort() + " on 127.0.0.1 is already in use; choose another with --kafka-port");
    }
  }

  @Test
  void unwritableDataDirIsAOneLineErrorNamingTheFlag() {
    Path inside = Path.of("/proc/netpulse-cannot-write-here");
    assertThatThrownBy(() -> EmbeddedKafka.start(inside, 0))
        .isInstanceOf(EmbeddedStartException.class)
        .hasMessageContaining("/proc/netpulse-cannot-write-here")
        .hasMessageContaining("choose another with --data-dir");
  }

  private static Admin admin(EmbeddedKafka kafka) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  private static List<String> readAll(EmbeddedKafka kafka, String topic) {
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "test-" + System.nanoTime(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
      consumer.subscribe(List.of(topic));
      long deadline = System.currentTimeMillis() + 20_000;
      while (values.isEmpty() && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          values.add(r.value());
        }
      }
    }
    return values;
  }
}
