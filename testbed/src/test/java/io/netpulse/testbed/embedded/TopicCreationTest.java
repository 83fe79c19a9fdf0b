package io.netpulse.testbed.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topics are writable when their creation returns: nothing a producer writes at once is lost or reordered. */
@Tag("kafka")
class TopicCreationTest {

  @TempDir Path dir;

  /**
   * What lost a test fixture's first 74 records in CI (KAFKA-15591, see {@link TopicCreation}): several produce
   * requests in flight to partitions created a moment before. Without the wait, 2 of 40 such rounds lost a batch on
   * a loaded machine; each round here is a new set of topics on the same broker, and every record must be written,
   * in the order sent.
   */
  @Test
  void recordsWrittenAtOnceAfterCreationAreAllWrittenInOrder() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
      for (int round = 0; round < 25; round++) {
        Topics topics = new Topics("tc" + round + ".");
        kafka.createTopics(topics, 2);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        // a lost batch fails its future within this, rather than the default two minutes
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
            new StringSerializer())) {
          for (int r = 0; r < 400; r++) {
            // several batches per partition (16 KiB each), all sent before the first is answered
            sent.add(producer.send(new ProducerRecord<>(r % 3 == 0 ? topics.runs() : topics.metrics(),
                "key" + r % 7, "{\"n\":" + r + ",\"pad\":\"" + "p".repeat(200) + "\"}")));
          }
          producer.flush();
        }
        Map<TopicPartition, Long> lastOffset = new HashMap<>();
        for (int r = 0; r < sent.size(); r++) {
          RecordMetadata m;
          try {
            m = sent.get(r).get();
          } catch (ExecutionException e) {
            throw new AssertionError("round " + round + ": record " + r + " was not written: " + e.getCause(), e);
          }
          TopicPartition tp = new TopicPartition(m.topic(), m.partition());
          Long before = lastOffset.put(tp, m.offset());
          assertThat(m.offset()).as("round %d record %d on %s", round, r, tp).isEqualTo(before == null ? 0 : before + 1);
        }
      }
    }
  }

  @Test
  void partitionsThatNeverBecomeWritableAreNamedWhenTheWaitRunsOut() {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
        Admin admin = Admin.create(kafka.connection().clientProperties())) {
      assertThatThrownBy(() -> TopicCreation.awaitWritable(admin, List.of("never.created"), 1, 2_000))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("never.created")
          .hasMessageContaining("did not become writable within 2000 ms");
    }
  }
}
