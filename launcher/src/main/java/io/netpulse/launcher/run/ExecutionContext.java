package io.netpulse.launcher.run;

import io.netpulse.common.event.SteadyEvent;
import io.netpulse.launcher.plan.Plan;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every repetition of one plan execution shares; {@code current} is the repetition under way, for the
 * Ctrl-C hook to mark FAILED; {@code colocation} the hosts that are the machine netpulse runs on.
 */
record ExecutionContext(
    Plan plan,
    String execution,
    ConnectedHosts hosts,
    RunPublisher publisher,
    TopicFollower<SteadyEvent> steady,
    RunProgress progress,
    AtomicReference<Lifecycle> current,
    Colocation colocation) {}
