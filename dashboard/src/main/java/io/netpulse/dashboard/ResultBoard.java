package io.netpulse.dashboard;

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
   * A row of a comparison.
   *
   * @param ratio b's mean ÷ a's mean, null unless both are there and a's is not zero
   */
  record Comparison(String test, String metric, String unit, ResultEvent a, ResultEvent b, Double ratio) {
    static Comparison of(ResultEvent a, ResultEvent b) {
      ResultEvent any = a != null ? a : b;
      Double ratio = a != null && b != null && a.mean() != 0 && Objects.equals(a.unit(), b.unit())
          ? b.mean() / a.mean() : null;
      return new Comparison(any.test(), any.metric(), any.unit(), a, b, ratio);
    }
  }
}
