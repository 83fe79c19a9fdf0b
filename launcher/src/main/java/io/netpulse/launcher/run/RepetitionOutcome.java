package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent;

/**
 * How one repetition went.
 *
 * @param run            its run id on the topics
 * @param failure        why it failed, null when it ran to the end
 * @param measuringStart epoch ms the measuring phase began (0 if it never did)
 * @param measuringEnd   epoch ms it ended
 * @param steadyAtMillis ms from traffic start to the steady event, -1 when none came (or the test was not steady-stopped)
 * @param climb          concurrent connections: what ended the climb and whose limit it was; null otherwise
 */
record RepetitionOutcome(String run, int repetition, String failure, long measuringStart, long measuringEnd,
    long steadyAtMillis, RunEvent.Climb climb) {

  boolean ok() {
    return failure == null;
  }
}
