package io.netpulse.testbed.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded broker whose log dir disappears stops itself instead of halting the JVM it shares with netpulse (which
 * must still clean up remote processes) or with a test run (whose other tests must still run).
 */
@Tag("kafka")
class EmbeddedKafkaLogDirFailureTest {

  @TempDir Path dir;

  @Test
  void aFailedLogDirStopsTheBrokerNotTheJvm() throws Exception {
    EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0);
    try {
      kafka.createTopics(Topics.defaults(), 1);
      int port = Integer.parseInt(kafka.bootstrapServers().substring(kafka.bootstrapServers().lastIndexOf(':') + 1));
      // moved away in one step: deleting file by file raced with the broker writing its checkpoint .tmp files
      java.nio.file.Files.move(kafka.logDir(), dir.resolve("log-dir-moved-away"));
      // a new partition needs its directory: the broker finds its only log dir gone
      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        try {
          admin.createTopics(java.util.List.of(new NewTopic("after-the-loss", 1, (short) 1))).all()
              .get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception refused) {
          // either way the broker has to touch its log dir
        }
      }
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> !listening(port));
      assertThat(Thread.currentThread().isAlive()).as("this JVM is still running").isTrue();
    } finally {
      kafka.close();
    }
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
