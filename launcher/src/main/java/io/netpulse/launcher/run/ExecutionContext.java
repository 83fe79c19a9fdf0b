package io.netpulse.launcher.run;

import io.netpulse.common.event.SteadyEvent;
import io.netpulse.launcher.plan.Plan;

/** What every repetition of one plan execution shares. */
record ExecutionContext(
    Plan plan,
    String execution,
    ConnectedHosts hosts,
    RunPublisher publisher,
    TopicFollower<SteadyEvent> steady,
    RunProgress progress) {}
