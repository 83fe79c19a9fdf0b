package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse processor} with a bad option against a real, reachable cluster, in its own JVM as the compose
 * service runs it: it stops at once with one line naming the real flag and its variable, exit 2, and has started
 * nothing (no topic created, no stream state written).
 */
@Tag("kafka")
class ProcessorValidationTest {

  @TempDir Path dir;

  @Test
  void anEmptyInfluxOrgIsAUsageErrorNamingItBeforeAnythingStarts() throws Exception {
    Path data = dir.resolve("processor-data");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      ChildNetpulse p = ChildNetpulse.run(dir.resolve("out.txt"), 120,
          Map.of("NETPULSE_INFLUX_ORG", ""), // as a compose file with an unset variable gives it
          "processor", "--bootstrap-servers", kafka.bootstrapServers(), "--data-dir", data.toString(),
          "--influx-url", "http://127.0.0.1:1");
      assertThat(p.exit()).as(p.output()).isEqualTo(2);
      assertThat(p.output().strip()).isEqualTo("netpulse: --influx-org (NETPULSE_INFLUX_ORG) is empty: give the "
          + "InfluxDB organisation to write to");
      assertThat(p.output()).doesNotContain("--store-url", "\tat ");

      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).as("topics created").isEmpty();
      }
      assertThat(Files.exists(data)).as("data dir made for stream state").isFalse();
    }
  }
}
