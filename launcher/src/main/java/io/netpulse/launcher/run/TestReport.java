package io.netpulse.launcher.run;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;
import java.util.Map;

/**
 * One test of an execution: its repetitions and the processor's three-run results per metric.
 *
 * @param failure            why the test could not run at all (host unreachable, tool missing), else null
 * @param missing            metrics whose result did not arrive from the processor in time
 * @param cpu                per run id, each host's CPU use over that repetition's measuring window (the hosts whose
 *                           figure came in time)
 * @param sharedWithNetpulse the test's hosts that are the machine netpulse runs on
 */
record TestReport(TestSpec test, List<RepetitionOutcome> repetitions, List<ResultEvent> results, String failure,
    List<String> missing, Map<String, List<CpuUse>> cpu, List<String> sharedWithNetpulse) {

  TestReport {
    repetitions = List.copyOf(repetitions);
    results = List.copyOf(results);
    missing = List.copyOf(missing);
    cpu = Map.copyOf(cpu);
    sharedWithNetpulse = List.copyOf(sharedWithNetpulse);
  }

  /** Without CPU figures or co-location. */
  TestReport(TestSpec test, List<RepetitionOutcome> repetitions, List<ResultEvent> results, String failure,
      List<String> missing) {
    this(test, repetitions, results, failure, missing, Map.of(), List.of());
  }

  static TestReport notRun(TestSpec test, String failure) {
    return new TestReport(test, List.of(), List.of(), failure, List.of());
  }

  /** The hosts' CPU use in one repetition, SUT first as the test lists its hosts; empty when none came. */
  List<CpuUse> cpuOf(RepetitionOutcome o) {
    return cpu.getOrDefault(o.run(), List.of());
  }

  boolean ok() {
    return failure == null && missing.isEmpty() && repetitions.stream().allMatch(RepetitionOutcome::ok);
  }
}
