package io.netpulse.testbed.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded broker's optional SASL_PLAINTEXT listener: the right password moves records, a wrong one is refused. */
@Tag("kafka")
class EmbeddedKafkaSaslTest {

  @TempDir Path dataDir;

  static KafkaConnection sasl(String bootstrapServers, String user, String password) {
    return new KafkaConnection(bootstrapServers, Map.of(
        "security.protocol", "SASL_PLAINTEXT",
        "sasl.mechanism", "PLAIN",
        "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
            + "\" password=\"" + password + "\";"), null);
  }

  @Test
  void saslListenerMovesRecordsForAKnownUserAndRefusesAWrongPassword() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecured(dataDir, 0,
        SecuredListeners.saslPlain(Map.of("netpulse", "s3cret")))) {
      assertThat(kafka.saslBootstrapServers()).isNotEqualTo(kafka.bootstrapServers()).startsWith("127.0.0.1:");
      Topics topics = new Topics("sasl.");
      KafkaConnection good = sasl(kafka.saslBootstrapServers(), "netpulse", "s3cret");
      EmbeddedKafka.createTopics(good, topics, 1, (short) 1);

      try (KafkaProducer<String, String> producer = new KafkaProducer<>(good.clientProperties(),
          new StringSerializer(), new StringSerializer())) {
        producer.send(new ProducerRecord<>(topics.lines(), "k", "over sasl")).get(30, TimeUnit.SECONDS);
      }
      // the PLAINTEXT listener still serves the same cluster
      try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(kafka.connection().clientProperties(
          Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")), new StringDeserializer(),
          new StringDeserializer())) {
        TopicPartition tp = new TopicPartition(topics.lines(), 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        List<String> values = new java.util.ArrayList<>();
        long deadline = System.currentTimeMillis() + 30_000;
        while (values.isEmpty() && System.currentTimeMillis() < deadline) {
          for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
            values.add(r.value());
          }
        }
        assertThat(values).containsExactly("over sasl");
      }

      KafkaConnection wrong = sasl(kafka.saslBootstrapServers(), "netpulse", "not-the-password");
      try (Admin admin = Admin.create(wrong.clientProperties())) {
        assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SaslAuthenticationException.class);
      }
    }
  }

  @Test
  void aSaslListenerNeedsAUser() {
    assertThatThrownBy(() -> SecuredListeners.saslPlain(Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
