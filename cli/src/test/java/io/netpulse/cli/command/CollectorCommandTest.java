package io.netpulse.cli.command;

import static io.netpulse.cli.command.CollectorRun.collector;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.LineEvent;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code netpulse collector agent|ssh} end to end through an embedded broker, and its usage errors. */
@Tag("root")
class CollectorCommandTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void missingInventoryIsAUsageErrorNamingTheFile() {
    Path missing = dir.resolve("nowhere.yaml");
    CollectorRun r = collector("ssh", "--inventory", missing.toString(), "--bootstrap-servers", "127.0.0.1:1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("netpulse: inventory " + missing + " does not exist").doesNotContain("\tat ");
  }

  @Test
  void misspeltInventoryKeyIsReportedWithItsLine() throws Exception {
    Path inv = dir.resolve("inventory.yaml");
    Files.writeString(inv, "hosts:\n  - name: a\n    address: 198.18.0.1\n    adress_typo: x\n");
    CollectorRun r = collector("ssh", "--inventory", inv.toString(), "--bootstrap-servers", "127.0.0.1:1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("inventory " + inv + ": unknown key 'adress_typo' at hosts[0]")
        .contains("known_hosts").doesNotContain("\tat ").doesNotContain("io.netpulse");
  }

  @Test
  void unknownSamplerIsAUsageError() {
    CollectorRun r = collector("agent", "--samplers", "sar-dev,bogus", "--bootstrap-servers", "127.0.0.1:1",
        "--data-dir", dir.toString(), "--duration", "1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("unknown sampler 'bogus'").contains("ss-summary");
  }

  @Test
  void agentAndSshModesStreamEverySamplerIntoKafkaWithContiguousSequences() throws Exception {
    Topics topics = Topics.defaults();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 2);
      CollectorRun agent = collector("agent", "--host", "agent-host", "--bootstrap-servers", kafka.bootstrapServers(),
          "--data-dir", dir.resolve("agent").toString(), "--duration", "4", "--metrics-interval", "2");
      assertThat(agent.exit()).as(agent.err()).isZero();

      Path inv = dir.resolve("inventory.yaml");
      Files.writeString(inv, String.join("\n",
          "defaults:",
          "  user: " + HOSTS.user(),
          "  identity: " + HOSTS.identity(),
          "  known_hosts: " + HOSTS.knownHosts(),
          "  samplers: [sar-dev, ss-summary]",
          "hosts:",
          "  - name: sut",
          "    address: " + HOSTS.sut().address(),
          "  - name: peer",
          "    address: " + HOSTS.peer().address(),
          "    samplers: [proc-net-dev]",
          ""));
      // 10 s: SSH set-up takes seconds on a busy machine
      CollectorRun ssh = collector("ssh", "--inventory", inv.toString(), "--bootstrap-servers",
          kafka.bootstrapServers(), "--data-dir", dir.resolve("ssh").toString(), "--duration", "10");
      assertThat(ssh.exit()).as(ssh.err()).isZero();
      // started again on the same data dir: every host/source goes on where it stopped, in a new epoch
      CollectorRun sshAgain = collector("ssh", "--inventory", inv.toString(), "--bootstrap-servers",
          kafka.bootstrapServers(), "--data-dir", dir.resolve("ssh").toString(), "--duration", "10");
      assertThat(sshAgain.exit()).as(sshAgain.err()).isZero();

      Map<String, List<LineEvent>> bySource = read(kafka.bootstrapServers(), topics.lines());
      assertThat(bySource).containsKeys("agent-host/sar-dev", "agent-host/ss-summary", "sut/sar-dev",
          "sut/ss-summary", "peer/proc-net-dev");
      bySource.forEach((source, lines) -> assertThat(lines.stream().map(LineEvent::seq).toList()).as(source)
          .containsExactlyElementsOf(LongStream.range(0, lines.size()).boxed().toList()));
      assertThat(bySource.get("agent-host/sar-dev")).allMatch(l -> l.epoch() != null);
      for (String source : List.of("sut/sar-dev", "sut/ss-summary", "peer/proc-net-dev")) {
        List<LineEvent> lines = bySource.get(source);
        List<Long> epochs = lines.stream().map(LineEvent::epoch).distinct().toList();
        assertThat(epochs).as(source + ": one epoch per start, in order").hasSize(2).isSorted();
        int firstAfter = lines.stream().map(LineEvent::epoch).toList().indexOf(epochs.get(1));
        LineEvent before = lines.get(firstAfter - 1);
        LineEvent after = lines.get(firstAfter);
        assertThat(after.gapMs()).as(source + ": the restart gap stated in its first line")
            .isEqualTo(after.ts() - before.ts());
        assertThat(lines).filteredOn(l -> l.gapMs() != null).as(source).containsExactly(after);
      }
      assertThat(bySource.get("sut/sar-dev")).anyMatch(l -> l.line().contains(HOSTS.sut().iface()));
      assertThat(bySource.get("sut/ss-summary")).anyMatch(l -> l.line().startsWith("TCP:"));
      assertThat(bySource.get("peer/proc-net-dev")).anyMatch(l -> l.line().contains(HOSTS.peer().iface() + ":"));
    }
  }

  private static Map<String, List<LineEvent>> read(String bootstrap, String topic) {
    Map<String, List<LineEvent>> bySource = new TreeMap<>();
    try (KafkaConsumer<String, List<LineEvent>> consumer = LinesTopic.fromBeginning(bootstrap, topic)) {
      int empty = 0;
      while (empty < 3) {
        var records = consumer.poll(Duration.ofMillis(500));
        empty = records.isEmpty() ? empty + 1 : 0;
        records.forEach(r -> r.value().forEach(line -> bySource.computeIfAbsent(line.host() + "/" + line.source(),
            k -> new ArrayList<>()).add(line)));
      }
    }
    return bySource;
  }
}
