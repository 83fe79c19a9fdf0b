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

  /**
   * The same report with, under each bit rate read from sar, the figure as the seeds compute it (kB taken as 1000 B,
   * {@code METRIC_as_seeds}), for comparing with vendors' published figures.
   */
  public PlanReport withSeedFigures() {
    List<MetricSection> out = new java.util.ArrayList<>();
    for (MetricSection s : sections) {
      out.add(s);
      io.netpulse.launcher.run.SeedFigures.of(s.type(), s.result()).ifPresent(seeds ->
          out.add(new MetricSection(seeds, s.type(), null, null, s.repetitions(), List.of())));
    }
    return new PlanReport(plan, resultsTopic, readAtMs, out);
  }

  /** Repetition numbers over all results, for the columns of the tables. */
  public List<Integer> repetitionNumbers() {
    TreeSet<Integer> all = new TreeSet<>();
    sections.forEach(s -> all.addAll(s.result().values().keySet()));
    return List.copyOf(all);
  }
}
