package io.netpulse.dashboard;

import io.netpulse.common.event.ResultEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The newest execution's result of every plan/test/metric: {@code results} keeps every execution's (keyed
 * plan/execution/test/metric), the board what {@code results-latest} would hold. Comparisons of executions are
 * {@link io.netpulse.common.compare.ExecutionIndex}'s ({@link DashboardState#executions()}).
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
}
