package io.netpulse.common.compare;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One execution's results as {@code compare} needs them, whatever they were read from (an archive, {@code run
 * --output json}, the results topic).
 *
 * @param source    what was read, for people (a file name, "results topic: plan P")
 * @param plan      the plan's name, null when the source does not say (run's JSON output)
 * @param execution the execution id, null when the source does not say
 * @param labels    the plan's labels; empty when none are known
 * @param metrics   one per test and metric, in the source's order
 */
public record ExecutionResults(String source, String plan, String execution, Map<String, String> labels,
    List<Metric> metrics) {

  public ExecutionResults {
    labels = labels == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    metrics = List.copyOf(metrics);
  }

  /** How the execution is named to people: its id, else its plan, else its source. */
  public String name() {
    return execution != null ? execution : plan != null ? plan : source;
  }

  /**
   * One test and metric's value per repetition.
   *
   * @param values repetition number → value, in {@code unit}; only repetitions that gave a value
   */
  public record Metric(String test, String metric, String unit, SortedMap<Integer, Double> values) {

    public Metric {
      values = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    public String key() {
      return test + "/" + metric;
    }

    public double[] array() {
      return values.values().stream().mapToDouble(Double::doubleValue).toArray();
    }
  }
}
