package io.netpulse.launcher.run;

import io.netpulse.common.event.SteadyEvent;
import io.netpulse.launcher.plan.Plan;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every repetition of one plan execution shares; {@code current} is the repetition under way, for the
 * Ctrl-C hook to mark FAILED; {@code colocation} the hosts that are the machine netpulse runs on; {@code facts}
 * what preflight found per host, for the provenance the PREPARING events carry.
 */
record ExecutionContext(
    Plan plan,
    String execution,
    ConnectedHosts hosts,
    RunPublisher publisher,
    TopicFollower<SteadyEvent> steady,
    RunProgress progress,
    AtomicReference<Lifecycle> current,
    Colocation colocation,
    java.util.Map<String, io.netpulse.launcher.remote.HostFacts> facts) {

  /** What preflight found on the test's hosts, in the test's host order; hosts it could not check are left out. */
  java.util.List<io.netpulse.common.event.HostInfo> hostInfo(io.netpulse.launcher.plan.TestSpec test) {
    return HostChecks.hostsOf(test).stream().map(facts::get).filter(java.util.Objects::nonNull)
        .map(io.netpulse.launcher.remote.HostFacts::info).toList();
  }
}
