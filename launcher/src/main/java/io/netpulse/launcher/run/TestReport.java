package io.netpulse.launcher.run;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;

/**
 * One test of an execution: its repetitions and the processor's three-run results per metric.
 *
 * @param failure why the test could not run at all (host unreachable, tool missing), else null
 * @param missing metrics whose result did not arrive from the processor in time
 */
record TestReport(TestSpec test, List<RepetitionOutcome> repetitions, List<ResultEvent> results, String failure,
    List<String> missing) {

  TestReport {
    repetitions = List.copyOf(repetitions);
    results = List.copyOf(results);
    missing = List.copyOf(missing);
  }

  static TestReport notRun(TestSpec test, String failure) {
    return new TestReport(test, List.of(), List.of(), failure, List.of());
  }

  boolean ok() {
    return failure == null && missing.isEmpty() && repetitions.stream().allMatch(RepetitionOutcome::ok);
  }
}
