package io.netpulse.common.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * B against A, test by test and metric by metric (in A's order, then B's), with what only one side has.
 *
 * @param onlyInA test/metric keys A has and B does not
 */
public record CompareReport(ExecutionResults a, ExecutionResults b, List<MetricComparison> rows,
    List<String> onlyInA, List<String> onlyInB) {

  public CompareReport {
    rows = List.copyOf(rows);
    onlyInA = List.copyOf(onlyInA);
    onlyInB = List.copyOf(onlyInB);
  }

  public static CompareReport of(ExecutionResults a, ExecutionResults b) {
    Map<String, ExecutionResults.Metric> inB = new LinkedHashMap<>();
    b.metrics().forEach(m -> inB.put(m.key(), m));
    List<MetricComparison> rows = new ArrayList<>();
    List<String> onlyInA = new ArrayList<>();
    for (ExecutionResults.Metric ma : a.metrics()) {
      ExecutionResults.Metric mb = inB.remove(ma.key());
      if (mb == null) {
        onlyInA.add(ma.key());
      } else {
        rows.add(MetricComparison.of(ma.test(), ma.metric(), ma.unit() != null ? ma.unit() : mb.unit(), ma.array(),
            mb.array()));
      }
    }
    return new CompareReport(a, b, rows, onlyInA, List.copyOf(inB.keySet()));
  }

  /** The rows significantly worse in B by more than {@code pct} percent. */
  public List<MetricComparison> regressions(double pct) {
    return rows.stream().filter(r -> r.regressionBeyond(pct)).toList();
  }
}
