package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.Durations;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;

/** A test with its plan and the SUT's facts: what a {@link Procedure} needs. */
public record ProcedureContext(Plan plan, TestSpec test, SutFacts sut) {

  public HostSpec host(String name) {
    return plan.host(name);
  }

  public String address(String hostName) {
    return plan.host(hostName).address();
  }

  /** Stream count with {@code auto} resolved against the SUT's queues. */
  public int streams() {
    return test.streams() == null ? 1 : test.streams().resolve(sut.queues());
  }

  /** Seconds for tools whose result is windowed from per-second samples: warm-up plus measuring time. */
  public long sampledSeconds() {
    return Durations.ceilSeconds(test.warmup().plus(test.duration()));
  }

  /** Seconds for tools that print one figure for their whole run (qperf, sockperf pp): the measuring time. */
  public long printedSeconds() {
    return Durations.ceilSeconds(test.duration());
  }

  /** Last port of {@code count} consecutive ports from the test's port, checked against 65535. */
  public int port(int offset) {
    long p = (long) test.port() + offset;
    if (p > 65535) {
      throw new IllegalArgumentException(test.label() + ": port " + test.port() + " + " + offset
          + " is past 65535; lower port or streams");
    }
    return (int) p;
  }
}
