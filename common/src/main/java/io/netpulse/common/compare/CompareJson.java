package io.netpulse.common.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A comparison as JSON-ready maps, the one shape of {@code netpulse compare --format json} and the dashboard's
 * {@code /api/compare}: {@code a}, {@code b} (source, plan, execution, labels), {@code alpha}, {@code comparisons}
 * (per row {@code a}/{@code b} with n, mean, stddev, ci95; ratio, changePct, t, df, p, verdict, direction),
 * {@code onlyInA}, {@code onlyInB}; with a gate also {@code regression} per row, {@code failOnRegressionPct}
 * and {@code regressions}.
 */
public final class CompareJson {

  private CompareJson() {}

  /** @param failOnRegressionPct the gate's threshold, or null without one */
  public static Map<String, Object> of(CompareReport r, Double failOnRegressionPct) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", side(r.a()));
    m.put("b", side(r.b()));
    m.put("alpha", MetricComparison.ALPHA);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (MetricComparison c : r.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("test", c.test());
      row.put("metric", c.metric());
      row.put("unit", c.unit());
      row.put("direction", c.direction().name().toLowerCase(Locale.ROOT));
      row.put("a", stats(c.a()));
      row.put("b", stats(c.b()));
      row.put("ratio", c.ratio());
      row.put("changePct", c.changePct());
      row.put("t", c.welch() == null ? null : finite(c.welch().t()));
      row.put("df", c.welch() == null ? null : finite(c.welch().df()));
      row.put("p", c.welch() == null ? null : c.welch().p());
      row.put("verdict", c.verdict().text());
      if (failOnRegressionPct != null) {
        row.put("regression", c.regressionBeyond(failOnRegressionPct));
      }
      rows.add(row);
    }
    m.put("comparisons", rows);
    m.put("onlyInA", r.onlyInA());
    m.put("onlyInB", r.onlyInB());
    if (failOnRegressionPct != null) {
      m.put("failOnRegressionPct", failOnRegressionPct);
      m.put("regressions", r.regressions(failOnRegressionPct).stream().map(c -> c.test() + "/" + c.metric()).toList());
    }
    return m;
  }

  /** JSON has no infinities: constant sides give an infinite t and df, written as null. */
  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static Map<String, Object> stats(SampleStats s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n", s.n());
    m.put("mean", finite(s.mean()));
    m.put("stddev", s.stddev());
    m.put("ci95", s.ci95());
    return m;
  }

  private static Map<String, Object> side(ExecutionResults e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", e.source());
    m.put("plan", e.plan());
    m.put("execution", e.execution());
    m.put("labels", e.labels());
    return m;
  }
}
