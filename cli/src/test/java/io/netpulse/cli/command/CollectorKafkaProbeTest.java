package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a starting collector tells the operator about its Kafka, against a real broker: the producer says "not present
 * in metadata" both when the cluster is down and when the lines topic is missing; the probe says which.
 */
@Tag("kafka")
class CollectorKafkaProbeTest {

  @TempDir Path dir;

  @Test
  void namesAMissingLinesTopicThenNothingOnceItExists() {
    Path spool = dir.resolve("spool");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      String warning = CollectorKafkaProbe.check(kafka.connection(), "netpulse.lines", spool);
      assertThat(warning).isEqualTo("Kafka at " + kafka.bootstrapServers() + " has no topic netpulse.lines; lines "
          + "wait in memory, then in the spool " + spool + ", and are sent once it exists: start 'netpulse processor' "
          + "(it creates netpulse's topics) or create them (docs/topics.md), or check --topic-prefix");

      kafka.createTopics(Topics.defaults(), 1);
      assertThat(CollectorKafkaProbe.check(kafka.connection(), "netpulse.lines", spool)).isNull();
    }
  }

  @Test
  void namesAClusterThatDoesNotAnswer() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Path spool = dir.resolve("spool");
    String warning = CollectorKafkaProbe.check(KafkaConnection.plain("127.0.0.1:" + closedPort), "netpulse.lines",
        spool);
    assertThat(warning).isEqualTo("Kafka at 127.0.0.1:" + closedPort + " does not answer within 10 s; lines wait in "
        + "memory, then in the spool " + spool + ", and are sent once it does: check --bootstrap-servers "
        + "(NETPULSE_BOOTSTRAP_SERVERS) and that Kafka is up");
  }
}
