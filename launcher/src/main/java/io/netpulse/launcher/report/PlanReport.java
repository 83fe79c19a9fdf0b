package io.netpulse.launcher.report;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Everything a report of one plan shows, in the order of the plan's tests (as the results arrived).
 *
 * @param plan       the plan's name
 * @param resultsTopic where the results were read from (named in the report)
 * @param readAtMs   epoch ms the topics were read
 * @param sections   one per test and metric
 */
public record PlanReport(String plan, String resultsTopic, long readAtMs, List<MetricSection> sections) {

  public PlanReport {
    sections = List.copyOf(sections);
  }

  /** The executions the results come from: one, unless a later execution replaced only some tests. */
  public List<String> executions() {
    return sections.stream().map(s -> s.result().execution()).filter(Objects::nonNull).distinct().sorted().toList();
  }

  /** Repetition numbers over all results, for the columns of the tables. */
  public List<Integer> repetitionNumbers() {
    TreeSet<Integer> all = new TreeSet<>();
    sections.forEach(s -> all.addAll(s.result().values().keySet()));
    return List.copyOf(all);
  }
}
