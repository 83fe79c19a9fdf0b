package io.netpulse.launcher.report;

import io.netpulse.common.event.RunEvent;

/**
 * One repetition as its lifecycle on {@code runs} tells it.
 *
 * @param measuringStart epoch ms of its MEASURING event, 0 when it never measured
 * @param measuringEnd   epoch ms of the phase after MEASURING (the processor's window end), 0 when none came
 * @param outcome        its last phase (DONE, FAILED, …)
 * @param reason         why it failed, else null
 * @param climb          concurrent connections: what ended the climb and whose limit it was, else null
 */
public record Repetition(String run, String test, String type, int repetition, String sut, String iface,
    String execution, long measuringStart, long measuringEnd, String outcome, String reason, RunEvent.Climb climb) {

  public boolean measured() {
    return measuringStart > 0 && measuringEnd > measuringStart;
  }

  public long measuringMillis() {
    return measured() ? measuringEnd - measuringStart : 0;
  }
}
