package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.ShutdownHookProbe;
import io.netpulse.testbed.netns.StaleHostNetworks;
import io.netpulse.cli.CliRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code netpulse cleanup --dry-run} names what a JVM killed with SIGKILL left. Only the dry run is exercised here:
 * a real cleanup would also remove other ended owners' networks on a shared machine (StaleHostNetworksTest removes
 * exactly its own).
 */
@Tag("root")
class CleanupCommandTest {

  @Test
  void dryRunListsAKilledJvmsNetworkAndRemovesNothing() throws Exception {
    assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
    Process child = ShutdownHookProbe.start();
    long sleeper = -1;
    try {
      String[] names = new BufferedReader(new InputStreamReader(child.getInputStream())).readLine().split(" ");
      sleeper = Long.parseLong(names[5]);
      child.destroyForcibly();
      assertThat(child.waitFor(15, TimeUnit.SECONDS)).isTrue();

      CliRun run = CliRun.of("cleanup", "--dry-run");

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).contains("would remove host network of PID " + child.pid() + " (ended): ")
          .contains(names[0]).contains(names[1]).contains(names[2]).contains("busy: processes [" + sleeper + "]");
      assertThat(Path.of("/run/netns", names[1])).as("a dry run removes nothing").exists();
    } finally {
      if (child.isAlive()) {
        child.destroyForcibly();
      }
      // the sleeper (started by the probe, so ours to end) keeps the network busy: stopped here, also when an
      // assertion above failed, so that failure is what the report shows
      try {
        for (ProcessHandle p : sleeper > 0 ? ProcessHandle.of(sleeper).stream().toList() : List.<ProcessHandle>of()) {
          p.destroy();
          p.onExit().get(10, TimeUnit.SECONDS);
        }
        StaleHostNetworks.find().stream().filter(l -> l.ownerPid() == child.pid()).forEach(StaleHostNetworks::remove);
      } catch (Exception e) { // printed, not thrown: a failure above is the one to report
        System.err.println("CleanupCommandTest could not clean up: " + e);
      }
    }
  }
}
