package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.HostNetworkException;
import io.netpulse.testbed.netns.StaleHostNetworks;
import io.netpulse.testbed.netns.StaleHostNetworks.Leftover;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse cleanup [--dry-run]}: removes the test-host network namespaces, bridges and veths that a demo or
 * test JVM killed with SIGKILL left behind (its own shutdown hook removes them otherwise). Only networks whose
 * creating process has ended, and only empty ones: a process still inside is named, never killed.
 */
@Command(
    name = "cleanup",
    mixinStandardHelpOptions = true,
    description = {"Remove the network namespaces and links of netpulse test hosts whose creating process has ended "
        + "(left by a demo or test killed with SIGKILL). Needs root."},
    footer = {"", "Exit codes: 0 nothing left, 1 something could not be removed (processes still run inside), "
        + "2 bad usage."})
public final class CleanupCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--dry-run", description = "only list what would be removed")
  boolean dryRun;

  @Override
  public Integer call() {
    if (!HostNetwork.supported()) {
      throw new UserError("netpulse cleanup removes network namespaces: run it as root, with iproute2 installed");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<Leftover> stale = StaleHostNetworks.find();
    if (stale.isEmpty()) {
      out.println("no stale netpulse host networks");
      return 0;
    }
    int failed = 0;
    for (Leftover leftover : stale) {
      String what = "host network of PID " + leftover.ownerPid() + " (ended): " + leftover.names();
      if (dryRun) {
        out.println("would remove " + what + (leftover.busy().isEmpty() ? "" : "; busy: processes " + leftover.busy()));
        continue;
      }
      try {
        StaleHostNetworks.remove(leftover);
        out.println("removed " + what);
      } catch (HostNetworkException e) {
        failed++;
        out.println("kept " + what + ": " + e.getMessage());
      }
    }
    out.flush();
    return failed == 0 ? 0 : 1;
  }
}
