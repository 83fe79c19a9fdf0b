package io.netpulse.dashboard;

import io.netpulse.common.compare.MetricCatalog;
import io.netpulse.common.compare.MetricComparison;
import io.netpulse.common.event.ResultEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The newest execution's result of every plan/test/metric: {@code results} keeps every execution's (keyed
 * plan/execution/test/metric), the board what {@code results-latest} would hold.
 */
final class ResultBoard {

  private static final Comparator<ResultEvent> BY_TEST =
      Comparator.comparing(ResultEvent::test).thenComparing(ResultEvent::metric);

  private final Map<String, ResultEvent> byKey = new ConcurrentHashMap<>();

  void add(ResultEvent result) {
    byKey.merge(result.latestKey(), result, (old, r) -> r.supersedes(old) ? r : old);
  }

  /** Plan names, sorted. */
  List<String> plans() {
    return List.copyOf(new TreeSet<>(byKey.values().stream().map(ResultEvent::plan).toList()));
  }

  /** The results of one plan (or of all when {@code plan} is null), by plan, test and metric. */
  List<ResultEvent> of(String plan) {
    List<ResultEvent> out = new ArrayList<>();
    for (ResultEvent r : byKey.values()) {
      if (plan == null || plan.equals(r.plan())) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparing(ResultEvent::plan).thenComparing(BY_TEST));
    return out;
  }

  /**
   * One row per test/metric present in either plan, with each plan's result (null where that plan has none): two
   * instance types measured with the same plan tests side by side.
   */
  List<Comparison> compare(String a, String b) {
    Map<String, Comparison> rows = new TreeMap<>();
    for (ResultEvent r : of(a)) {
      rows.put(r.test() + "/" + r.metric(), Comparison.of(r, null));
    }
    for (ResultEvent r : of(b)) {
      rows.merge(r.test() + "/" + r.metric(), Comparison.of(null, r), (left, right) -> Comparison.of(left.a(), r));
    }
    return List.copyOf(rows.values());
  }

  /**
   * A row of a comparison, judged as {@code netpulse compare} judges it (the statistics and the metric catalog of
   * {@link io.netpulse.common.compare}): Welch's p and B's verdict, which knows whether the metric is better higher
   * or lower.
   *
   * @param ratio     b's mean ÷ a's mean, null unless both are there and a's is not zero
   * @param p         Welch's two-sided p-value, null unless both have two or more repetitions in the same unit
   * @param verdict   better, worse, no significant difference, not enough repetitions; null unless both are there
   * @param direction which way the metric improves, e.g. "higher is better"
   */
  record Comparison(String test, String metric, String unit, ResultEvent a, ResultEvent b, Double ratio, Double p,
      String verdict, String direction) {
    static Comparison of(ResultEvent a, ResultEvent b) {
      ResultEvent any = a != null ? a : b;
      Double ratio = a != null && b != null && a.mean() != 0 && Objects.equals(a.unit(), b.unit())
          ? b.mean() / a.mean() : null;
      Double p = null;
      String verdict = null;
      if (a != null && b != null && Objects.equals(a.unit(), b.unit()) && a.values() != null && b.values() != null) {
        MetricComparison c = MetricComparison.of(any.test(), any.metric(), any.unit(), values(a), values(b));
        p = c.welch() == null ? null : c.welch().p();
        verdict = c.verdict().text();
      }
      return new Comparison(any.test(), any.metric(), any.unit(), a, b, ratio, p, verdict,
          MetricCatalog.direction(any.metric(), any.unit()).text());
    }

    private static double[] values(ResultEvent r) {
      return r.values().values().stream().mapToDouble(Double::doubleValue).toArray();
    }
  }
}
