package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server port an earlier test left in TIME-WAIT: netserver cannot listen on it (Linux refuses the bind until the
 * socket ends, within 60 s, when the socket that left it had no SO_REUSEADDR), so the launcher waits for Linux to end
 * it and starts the servers again, saying so; the test then gives its result. Seen in seed 000's suite on the capped
 * bed: its concurrent-connections ports (2000-64099) cross the ephemeral range the tests before it used.
 */
@Tag("root")
class PortsInTimeWaitEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final int PORT = 23456;

  @TempDir Path dir;

  @Test
  void aServerPortInTimeWaitIsWaitedOutAndTheTestGivesItsResult() throws Exception {
    NetHost sut = HOSTS.sut();
    // a listener without SO_REUSEADDR on the port, whose side closes first: the TIME-WAIT stays on the SUT
    HOSTS.exec(sut, "python3", "-c", String.join("\n",
        "import socket",
        "l = socket.socket(); l.bind(('0.0.0.0', " + PORT + ")); l.listen()",
        "c = socket.create_connection(('127.0.0.1', " + PORT + ")); s, _ = l.accept()",
        "s.close(); c.recv(1); c.close(); l.close()"));
    assertThat(HOSTS.exec(sut, "ss", "-Htan", "state", "time-wait", "sport = :" + PORT)).as("the TIME-WAIT made")
        .contains(":" + PORT);

    Path plan = TestPlans.write(dir, HOSTS, "time-wait", """
        repetitions: 1
        stop: fixed
        warmup: 1s""", "{ type: tcp_rr, port: " + PORT + ", duration: 2s }");
    long t0 = System.nanoTime();
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan, SharedPipeline.get().runArgs());
    long tookMs = (System.nanoTime() - t0) / 1_000_000;
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertThat(run.byTypeAndMetric().get("tcp_rr/trans_per_s")).as(run.stdout()).isNotNull();
    assertThat(run.byTypeAndMetric().get("tcp_rr/trans_per_s").path("runs")).hasSize(1);
    assertThat(run.stderr()).contains("on sut 1 TIME-WAIT on port " + PORT + ", left by an earlier test, keep its"
        + " servers from listening; waiting for Linux to end them (within 60 s)");
    System.err.printf("TIME-WAIT: the run took %.1f s%n", tookMs / 1000.0);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }
}
