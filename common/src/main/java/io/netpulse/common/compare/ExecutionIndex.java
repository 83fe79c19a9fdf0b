package io.netpulse.common.compare;

import io.netpulse.common.event.ResultEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every execution's results as read from the results topic, and the one rule that turns what a user typed into one
 * of them: an execution id, a plan's name (its latest execution) or a label selector {@code KEY=VALUE[,KEY=VALUE]}
 * (the latest execution whose labels hold every pair). {@code netpulse compare} fills one from a snapshot of the
 * topic, the dashboard from its live feed: both give the same sides, so the same rows.
 *
 * <p>Results are grouped by plan and execution (an older producer's result without an execution stands for its
 * plan's only one). A later result of the same test and metric replaces the earlier (it has more repetitions); a
 * tombstone removes what its key held. "Latest" is the execution whose newest result is newest ({@code ts}), ties
 * broken by execution id (ids sort by time). Metrics are ordered by their result's time, then test and metric:
 * the order the plan ran them in, whatever order the topic's partitions were read in. Thread-safe.
 */
public final class ExecutionIndex {

  /** Where the results come from (a topic's name), named in sources and messages. */
  private final String topic;
  private final Map<String, Execution> executions = new HashMap<>(); // by plan + '\n' + execution
  private final Map<String, String[]> byRecordKey = new HashMap<>(); // record key → execution key, test/metric

  public ExecutionIndex(String topic) {
    this.topic = topic;
  }

  /**
   * One execution as the dashboard lists it: newest first in {@link #executions()}.
   *
   * @param select   what picks it in {@link #resolve}: its id, or its plan when an older producer gave none
   * @param latestMs epoch ms of its newest result
   * @param metrics  how many test/metric results it has
   */
  public record Summary(String select, String execution, String plan, SortedMap<String, String> labels,
      long latestMs, int metrics) {}

  private static final class Execution {
    final String plan;
    final String id;
    long latestTs;
    final SortedMap<String, String> labels = new TreeMap<>();
    final Map<String, Timed> metrics = new HashMap<>();

    Execution(String plan, String id) {
      this.plan = plan;
      this.id = id;
    }
  }

  private record Timed(ExecutionResults.Metric metric, long ts) {}

  private static final Comparator<Execution> LATEST = Comparator.<Execution>comparingLong(e -> e.latestTs)
      .thenComparing(e -> e.id == null ? "" : e.id);

  private static final Comparator<Timed> RUN_ORDER = Comparator.comparingLong(Timed::ts)
      .thenComparing(t -> t.metric().test()).thenComparing(t -> t.metric().metric());

  /**
   * One record of the results topic: {@code result} null is a tombstone. A result without plan, test, metric or
   * values is not one (a foreign producer's) and is left out.
   */
  public synchronized void add(String recordKey, ResultEvent result) {
    if (result == null) {
      String[] was = recordKey == null ? null : byRecordKey.remove(recordKey);
      Execution e = was == null ? null : executions.get(was[0]);
      if (e != null) {
        e.metrics.remove(was[1]);
      }
      return;
    }
    if (result.plan() == null || result.test() == null || result.metric() == null || result.values() == null) {
      return;
    }
    String key = result.plan() + "\n" + (result.execution() == null ? "" : result.execution());
    Execution e = executions.computeIfAbsent(key, k -> new Execution(result.plan(), result.execution()));
    e.latestTs = Math.max(e.latestTs, result.ts());
    if (result.labels() != null) {
      e.labels.putAll(result.labels());
    }
    ExecutionResults.Metric m = new ExecutionResults.Metric(result.test(), result.metric(), result.unit(),
        result.values());
    e.metrics.put(m.key(), new Timed(m, result.ts()));
    if (recordKey != null) {
      byRecordKey.put(recordKey, new String[] {key, m.key()});
    }
  }

  /** Executions that have results, newest first. */
  public synchronized List<Summary> executions() {
    return executions.values().stream().filter(e -> !e.metrics.isEmpty()).sorted(LATEST.reversed())
        .map(e -> new Summary(e.id != null ? e.id : e.plan, e.id, e.plan, new TreeMap<>(e.labels), e.latestTs,
            e.metrics.size()))
        .toList();
  }

  /**
   * The execution {@code selector} names.
   *
   * @throws ExecutionLookupException MALFORMED for an empty or malformed selector, NO_LABEL_MATCH when no
   *     execution has the labels, UNKNOWN when no execution or plan has that name
   */
  public synchronized ExecutionResults resolve(String selector) {
    if (selector == null || selector.isBlank()) {
      throw new ExecutionLookupException(ExecutionLookupException.Kind.MALFORMED,
          "empty: expected an execution id, a plan name or a label selector KEY=VALUE[,KEY=VALUE]");
    }
    List<Execution> all = executions.values().stream().filter(e -> !e.metrics.isEmpty()).toList();
    Execution chosen;
    if (LabelSelector.isSelector(selector)) {
      LabelSelector wanted = LabelSelector.parse(selector);
      chosen = latest(all.stream().filter(e -> wanted.matches(e.labels)).toList(), () -> new ExecutionLookupException(
          ExecutionLookupException.Kind.NO_LABEL_MATCH, "no execution on " + topic + " has the labels " + selector
              + " (labels come from the plan's 'labels:')"));
    } else {
      List<Execution> byId = all.stream().filter(e -> selector.equals(e.id)).toList();
      chosen = latest(byId.isEmpty() ? all.stream().filter(e -> selector.equals(e.plan)).toList() : byId,
          () -> new ExecutionLookupException(ExecutionLookupException.Kind.UNKNOWN, "no results for '" + selector
              + "' on " + topic + ": not an execution id, a plan name or a label selector (KEY=VALUE) that it holds"));
    }
    List<ExecutionResults.Metric> metrics = new ArrayList<>();
    chosen.metrics.values().stream().sorted(RUN_ORDER).forEach(t -> metrics.add(t.metric()));
    return new ExecutionResults(topic + ": " + selector, chosen.plan, chosen.id, chosen.labels, metrics);
  }

  private static Execution latest(List<Execution> candidates,
      java.util.function.Supplier<ExecutionLookupException> none) {
    return candidates.stream().max(LATEST).orElseThrow(none);
  }
}
