package io.netpulse.launcher.run;

import io.netpulse.launcher.remote.HostFacts;
import java.util.List;
import java.util.Map;

/**
 * What a plan execution produced, for the final table and {@code --format json}; {@code labels} the plan's;
 * {@code interrupted} when SIGINT/SIGTERM (Ctrl-C) stopped it.
 */
public record ExecutionReport(String plan, String execution, long wallMillis, Map<String, HostFacts> hosts,
    List<TestReport> tests, Map<String, String> labels, boolean interrupted) {

  public ExecutionReport {
    labels = labels == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(labels));
  }

  /** Not interrupted. */
  public ExecutionReport(String plan, String execution, long wallMillis, Map<String, HostFacts> hosts,
      List<TestReport> tests, Map<String, String> labels) {
    this(plan, execution, wallMillis, hosts, tests, labels, false);
  }

  /** Without labels. */
  public ExecutionReport(String plan, String execution, long wallMillis, Map<String, HostFacts> hosts,
      List<TestReport> tests) {
    this(plan, execution, wallMillis, hosts, tests, Map.of());
  }

  public boolean ok() {
    return tests.stream().allMatch(TestReport::ok);
  }

  public void printTable(java.io.PrintWriter out) {
    ResultTable.print(this, out);
  }

  /** @param seedFigures also each figure as the seeds compute it, where that differs ({@link SeedFigures}) */
  public void printTable(java.io.PrintWriter out, boolean seedFigures) {
    ResultTable.print(this, out, seedFigures);
  }

  public List<Map<String, Object>> json() {
    return ResultTable.json(this);
  }

  public List<Map<String, Object>> json(boolean seedFigures) {
    return ResultTable.json(this, seedFigures);
  }
}
