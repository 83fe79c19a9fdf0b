package io.netpulse.launcher.report;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.run.CpuNotes;
import java.util.List;

/**
 * One repetition as its lifecycle on {@code runs} tells it.
 *
 * @param measuringStart epoch ms of its MEASURING event, 0 when it never measured
 * @param measuringEnd   epoch ms of the phase after MEASURING (the processor's window end), 0 when none came
 * @param outcome        its last phase (DONE, FAILED, …)
 * @param reason         why it failed, else null
 * @param climb          concurrent connections: what ended the climb and whose limit it was, else null
 * @param sharedWithNetpulse its hosts that are the machine netpulse ran on; null when its events did not say
 * @param cpu            each host's CPU use over its measuring window (the SUT first), from {@code cpu}
 */
public record Repetition(String run, String test, String type, int repetition, String sut, String iface,
    String execution, long measuringStart, long measuringEnd, String outcome, String reason, RunEvent.Climb climb,
    List<String> sharedWithNetpulse, List<CpuUse> cpu) {

  public Repetition {
    sharedWithNetpulse = sharedWithNetpulse == null ? null : List.copyOf(sharedWithNetpulse);
    cpu = cpu == null ? List.of() : List.copyOf(cpu);
  }

  /** Without co-location or CPU figures. */
  public Repetition(String run, String test, String type, int repetition, String sut, String iface,
      String execution, long measuringStart, long measuringEnd, String outcome, String reason, RunEvent.Climb climb) {
    this(run, test, type, repetition, sut, iface, execution, measuringStart, measuringEnd, outcome, reason, climb,
        null, List.of());
  }

  /** Its CPU use and flags for people, or null when there is nothing to say. */
  public String cpuNote() {
    return CpuNotes.note(cpu, sharedWithNetpulse);
  }

  public boolean measured() {
    return measuringStart > 0 && measuringEnd > measuringStart;
  }

  public long measuringMillis() {
    return measured() ? measuringEnd - measuringStart : 0;
  }
}
