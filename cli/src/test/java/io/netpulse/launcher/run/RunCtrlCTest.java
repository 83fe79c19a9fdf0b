package io.netpulse.launcher.run;

import io.netpulse.testbed.ChildJava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.cli.Main;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code netpulse run PLAN} (a child JVM, as from a terminal) while a 4-stream netperf test
 * measures: the child (with its embedded pipeline, the default) exits, none of the tools it started is left in either namespace, the repetition
 * under way is FAILED on {@code runs} as interrupted, and the plan's second test never starts.
 */
@Tag("root")
class RunCtrlCTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void ctrlCWhileMeasuringStopsEverythingAndMarksTheRunFailed() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "ctrlc", "repetitions: 1\nstop: fixed\nwarmup: 1s",
        "{ type: rx_bandwidth, name: long-stream, streams: 4, duration: 60s }",
        "{ type: latency, name: never-reached, duration: 2s, ping_count: 2 }");
    Path stderr = dir.resolve("stderr.txt");
    Path data = dir.resolve("data");
    // what Ctrl-C leaves, not the streams' figures: capped (RunEndToEndTest.SENDERS_CAP)
    LinkCap.Both cap = LinkCap.sendersOf(HOSTS, RunEndToEndTest.SENDERS_CAP);
    // the default, embedded pipeline: its broker goes down with the child, its data stays in --data-dir
    Process child = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
        Main.class.getName(),
        "run", plan.toString(), "--format=json", "--data-dir=" + data, "--result-timeout=5"))
        .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(stderr.toFile()).start();
    try {
      await("the repetition measuring with netserver, netperf and sar running").atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> {
            assertThat(child.isAlive()).as("child ended early:\n" + Files.readString(stderr)).isTrue();
            return Files.readString(stderr).contains("measuring")
                && RunEndToEndTest.commandsIn(HOSTS.sut().namespace()).containsAll(List.of("netserver", "sar"))
                && RunEndToEndTest.commandsIn(HOSTS.peer().namespace()).contains("netperf");
          });
      // SIGINT, as Ctrl-C in a terminal delivers it (Process.destroy() would send TERM)
      assertThat(new ProcessBuilder("kill", "-INT", String.valueOf(child.pid())).start().waitFor()).isZero();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child exits after SIGINT:\n" + Files.readString(stderr))
          .isTrue();
    } finally {
      if (child.isAlive()) {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      cap.close();
    }
    System.err.println(Files.readString(stderr));
    // the hook stops every group before the JVM ends; only the reaping of the killed ones may lag a little
    await("no tool left in the namespaces").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> RunEndToEndTest.assertNothingLeft(HOSTS));

    // the child's broker data, opened again here: what did the run publish before it ended?
    try (EmbeddedKafka kafka = EmbeddedKafka.start(data, 0)) {
      List<RunEvent> events = runEvents(kafka.bootstrapServers(), "long-stream", RunEvent.Phase.FAILED);
      RunEvent failed = events.stream().filter(e -> e.phase() == RunEvent.Phase.FAILED).findFirst().orElse(null);
      assertThat(failed).as("FAILED for the interrupted repetition in " + events).isNotNull();
      assertThat(failed.test()).isEqualTo("long-stream");
      assertThat(failed.run()).endsWith("-t1r1");
      assertThat(failed.reason()).contains("interrupted (SIGINT");
      assertThat(events).as("one last phase only").filteredOn(e -> e.phase() == RunEvent.Phase.FAILED
          || e.phase() == RunEvent.Phase.DONE).hasSize(1);
      assertThat(events).extracting(RunEvent::test).as("the second test never started").doesNotContain("never-reached");
    }
  }

  /** Every event on {@code runs}, read until one of {@code test} has {@code phase} (or 15 s). */
  private static List<RunEvent> runEvents(String bootstrap, String test, RunEvent.Phase phase) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "ctrlc-test");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<RunEvent> all = new ArrayList<>();
    try (KafkaConsumer<String, RunEvent> c = new KafkaConsumer<>(p, new StringDeserializer(),
        JsonSerde.of(RunEvent.class).deserializer())) {
      c.subscribe(List.of(Topics.defaults().runs()));
      long deadline = System.currentTimeMillis() + 15_000;
      while (System.currentTimeMillis() < deadline
          && all.stream().noneMatch(e -> test.equals(e.test()) && e.phase() == phase)) {
        c.poll(Duration.ofMillis(500)).forEach(rec -> all.add(rec.value()));
      }
      // a little longer, so that a duplicate or a later event would be seen too
      c.poll(Duration.ofSeconds(2)).forEach(rec -> all.add(rec.value()));
    }
    return all;
  }
}
