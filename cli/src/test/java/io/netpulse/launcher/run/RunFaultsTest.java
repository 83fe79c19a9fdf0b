package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One plan with a fault per test — an unreachable host, a key the host refuses, a host key that
 * changed, a missing tool, a port already taken — and one healthy test: each fault gives a message
 * naming the host and what to do, its repetitions are FAILED on {@code runs} with the reason, the
 * healthy test still gives its result, the run exits 1, and nothing it started is left running. And a fault during
 * the traffic: a sampler killed mid-window.
 */
@Tag("root")
class RunFaultsTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final Pattern EXECUTION = Pattern.compile("netpulse run: plan \\S+, execution ([^\\s,]+)");

  @TempDir Path dir;

  @Test
  void eachFaultFailsOnlyItsTestWithAClearReason() throws Exception {
    String sut = HOSTS.sut().address();
    String ghost = sut.substring(0, sut.lastIndexOf('.')) + ".77"; // in the test subnet, nobody there
    Path wrongKey = dir.resolve("wrong_ed25519");
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", wrongKey.toString());
    Path changedKnownHosts = dir.resolve("changed_known_hosts");
    Files.writeString(changedKnownHosts, sut + " " + Files.readString(Path.of(wrongKey + ".pub")).strip() + "\n");
    int takenPort = 23000 + (int) (ProcessHandle.current().pid() % 1000);
    Process squatter = HOSTS.network().start(HOSTS.sut(), List.of("netserver", "-D", "-p", String.valueOf(takenPort)));
    Path plan;
    SharedPipeline pipeline = SharedPipeline.get();
    try {
      String extraHosts = String.join("\n",
          "  ghost: { address: " + ghost + ", user: root, identity: " + HOSTS.identity() + ", known_hosts: "
              + HOSTS.knownHosts() + " }",
          "  badkey: { address: " + sut + ", user: root, identity: " + wrongKey + ", known_hosts: "
              + HOSTS.knownHosts() + " }",
          "  changedkey: { address: " + sut + ", user: root, identity: " + HOSTS.identity() + ", known_hosts: "
              + changedKnownHosts + " }");
      plan = TestPlans.writeWithHosts(dir, HOSTS, "faults", extraHosts, "repetitions: 1\nstop: fixed\nwarmup: 0s",
          "{ type: latency, name: healthy, duration: 1s, ping_count: 2 }",
          "{ type: rx_bandwidth, name: unreachable, sut: ghost, peer: peer, streams: 1, duration: 2s }",
          "{ type: rx_bandwidth, name: wrong-key, sut: badkey, peer: peer, streams: 1, duration: 2s }",
          "{ type: rx_bandwidth, name: changed-key, sut: changedkey, peer: peer, streams: 1, duration: 2s }",
          "{ type: concurrent_connections, name: missing-tool, tool: c1000k, c1000k_dir: /nonexistent,"
              + " listeners: 1, clients: [peer], duration: 2s }",
          "{ type: new_connections, name: port-taken, streams: 1, port: " + takenPort + ", duration: 2s }");
      RunEndToEndTest.Run r = RunEndToEndTest.run(plan, pipeline.runArgs("--connect-timeout=3", "--result-timeout=30"));
      assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
      Map<String, JsonNode> byTest = new HashMap<>();
      Json.mapper().readTree(r.stdout()).forEach(n -> byTest.merge(n.path("test").asText(), n, (a, b) -> a.has("error") ? a : b));
      assertThat(byTest.get("healthy").path("mean").asDouble()).as(r.stdout()).isPositive();
      assertThat(error(byTest, "unreachable")).startsWith("host ghost").contains("check the address");
      assertThat(error(byTest, "wrong-key")).startsWith("host badkey").contains("authorized_keys");
      assertThat(error(byTest, "changed-key")).startsWith("host changedkey").contains("differs");
      assertThat(error(byTest, "missing-tool")).contains("host sut").contains("/nonexistent/server not found")
          .contains("--install-tools");
      assertThat(byTest.get("port-taken").path("failedRepetitions").path("1").asText())
          .contains("sut").contains("port");

      Matcher execution = EXECUTION.matcher(r.stderr());
      assertThat(execution.find()).as(r.stderr()).isTrue();
      Map<String, String> failed = failedRuns(pipeline.bootstrapServers(), execution.group(1), "healthy", 5);
      assertThat(failed.keySet()).containsExactlyInAnyOrder("unreachable", "wrong-key", "changed-key", "missing-tool",
          "port-taken");
      assertThat(failed.get("unreachable")).contains("host ghost");
      assertThat(failed.get("port-taken")).contains("port");
    } finally {
      HOSTS.network().stop(squatter);
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /**
   * A sampler that ends mid-window (here sar, killed on the SUT as a crash would; in the wild, an SSH session cut by
   * a flood into the SUT) took the window's later seconds with it: its repetition fails, saying which sampler ended
   * and when, instead of being valued on the seconds that came. The result, the runs topic and the next test say so.
   */
  @Test
  void aSamplerThatEndsMidWindowFailsItsRepetitionNotItsRun() throws Exception {
    SharedPipeline pipeline = SharedPipeline.get();
    Path plan = TestPlans.write(dir, HOSTS, "sampler-lost", "repetitions: 1\nstop: fixed\nwarmup: 0s",
        "{ type: rx_bandwidth, name: sar-killed, streams: 1, duration: 10s }",
        "{ type: latency, name: after, duration: 1s, ping_count: 2 }");
    List<Long> killed = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicReference<RuntimeException> killerFailed =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread killer = new Thread(() -> {
      try {
        // sar runs from the repetition's start, the 10 s of traffic a moment later: killed about 5 s in
        HOSTS.awaitRunning(HOSTS.sut(), "sar", Duration.ofSeconds(60));
        Thread.sleep(5_000);
        killed.addAll(HOSTS.kill(HOSTS.sut(), "sar"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        killerFailed.set(e);
      }
    }, "sar-killer");
    killer.start();
    RunEndToEndTest.Run r;
    try {
      r = RunEndToEndTest.run(plan, pipeline.runArgs("--result-timeout=30"));
    } finally {
      killer.interrupt();
      killer.join();
    }
    assertThat(killerFailed.get()).isNull();
    assertThat(killed).as("sar killed on the SUT").isNotEmpty();
    assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
    Map<String, JsonNode> byTest = new HashMap<>();
    Json.mapper().readTree(r.stdout()).forEach(n -> byTest.merge(n.path("test").asText(), n, (a, b) -> a.has("error") ? a : b));
    assertThat(byTest.get("sar-killed").path("mean").isMissingNode() || byTest.get("sar-killed").path("mean").isNull())
        .as("no value from the seconds before the kill: %s", byTest.get("sar-killed")).isTrue();
    assertThat(byTest.get("sar-killed").path("failedRepetitions").path("1").asText()).as(r.stdout())
        .startsWith("host sut: sampler").contains("sar").contains("before its window closed");
    assertThat(byTest.get("after").path("mean").asDouble()).as("the next test runs: %s", r.stdout()).isPositive();
    Matcher execution = EXECUTION.matcher(r.stderr());
    assertThat(execution.find()).as(r.stderr()).isTrue();
    Map<String, String> failed = failedRuns(pipeline.bootstrapServers(), execution.group(1), "after", 1);
    assertThat(failed.keySet()).containsExactly("sar-killed");
    assertThat(failed.get("sar-killed")).contains("sampler").contains("ended");
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  private static String error(Map<String, JsonNode> byTest, String test) {
    JsonNode n = byTest.get(test);
    assertThat(n).as(test).isNotNull();
    return n.path("error").asText();
  }

  /** Test name → reason of its FAILED lifecycle event, in {@code execution} (the shared topics hold others'). */
  private static Map<String, String> failedRuns(String bootstrap, String execution, String doneTest, int failures) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "faults-test-" + execution);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    Map<String, String> failed = new HashMap<>();
    try (KafkaConsumer<String, RunEvent> c = new KafkaConsumer<>(p, new StringDeserializer(),
        JsonSerde.of(RunEvent.class).deserializer())) {
      c.subscribe(List.of(Topics.defaults().runs()));
      long deadline = System.currentTimeMillis() + 15_000;
      List<RunEvent> all = new ArrayList<>();
      while (System.currentTimeMillis() < deadline) {
        c.poll(Duration.ofMillis(500)).forEach(rec -> {
          if (execution.equals(rec.value().execution())) {
            all.add(rec.value());
          }
        });
        if (all.stream().anyMatch(e -> doneTest.equals(e.test()) && e.phase() == RunEvent.Phase.DONE)
            && all.stream().filter(e -> e.phase() == RunEvent.Phase.FAILED).count() >= failures) {
          break;
        }
      }
      all.stream().filter(e -> e.phase() == RunEvent.Phase.FAILED).forEach(e -> failed.put(e.test(), e.reason()));
    }
    return failed;
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(out).isZero();
  }
}
