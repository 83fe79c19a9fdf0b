package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop that cannot reach its host is tried again over a new connection and, failing that, is never only a log line:
 * the repetition fails naming the process groups that may still run and how to stop them. On 2026-12-03 an
 * overloaded SUT's sshd did not answer, the launcher logged "cannot send TERM to 112 process groups", and 112 senders
 * flooded on through the next tests. Here every sshd process of the SUT is frozen (SIGSTOP) mid-repetition: its
 * sessions stay open, so its tools still look alive, but no command and no new connection gets an answer (its own
 * hosts: no other test's SSH goes there). The tools, in their own sessions, go on until the test thaws and kills sshd.
 */
@Tag("root")
class StopUnreachableTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void aStopThatCannotReachItsHostFailsTheRepetitionNamingWhatMayStillRun() throws Exception {
    SharedPipeline pipeline = SharedPipeline.get();
    Path plan = TestPlans.write(dir, HOSTS, "stop-unreachable", "repetitions: 1\nstop: fixed\nwarmup: 0s",
        "{ type: rx_bandwidth, streams: 1, duration: 8s }");
    List<Long> frozen = new CopyOnWriteArrayList<>();
    Thread cut = new Thread(() -> {
      try {
        HOSTS.awaitRunning(HOSTS.sut(), "sar", Duration.ofSeconds(60));
        Thread.sleep(3_000);
        frozen.addAll(HOSTS.signal(HOSTS.sut(), "sshd", "STOP")); // the listener and every connection's
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "sshd-killer");
    cut.start();
    RunEndToEndTest.Run r;
    // what the stop reports, not the stream's figure: capped (RunEndToEndTest.SENDERS_CAP)
    LinkCap.Both cap = LinkCap.sendersOf(HOSTS, RunEndToEndTest.SENDERS_CAP);
    try {
      r = RunEndToEndTest.run(plan, pipeline.runArgs("--result-timeout=20", "--connect-timeout=3"));
    } finally {
      cut.interrupt();
      cut.join();
      HOSTS.kill(HOSTS.sut(), "sshd"); // its sessions' end has the tools' watchdogs kill them
      cap.close();
    }
    assertThat(frozen).as("sshd frozen in sut").isNotEmpty();
    assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
    JsonNode result = Json.mapper().readTree(r.stdout()).get(0);
    String failed = result.path("failedRepetitions").path("1").asText();
    assertThat(failed).as(r.stdout()).contains("host sut: ").contains("could not be stopped and may still run")
        .containsPattern("kill -s KILL -- -\\d+");
    assertThat(r.stderr()).as("said as it happened, not only in the result").contains("could not be stopped");
  }
}
