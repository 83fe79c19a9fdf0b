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

  /** The plan's labels as the newest execution's results carry them; empty when none (or older producers). */
  public java.util.Map<String, String> labels() {
    return sections.stream().map(MetricSection::result).filter(r -> r.labels() != null)
        .max(java.util.Comparator.comparing(r -> r.execution() == null ? "" : r.execution()))
        .map(io.netpulse.common.event.ResultEvent::labels).orElse(java.util.Map.of());
  }

  /** What the results were measured on, one per host (the newest execution's facts of it), by host name. */
  public List<io.netpulse.common.event.HostInfo> hostFacts() {
    java.util.Map<String, io.netpulse.common.event.HostInfo> byHost = new java.util.TreeMap<>();
    sections.stream().map(MetricSection::result)
        .sorted(java.util.Comparator.comparing(r -> r.execution() == null ? "" : r.execution()))
        .forEach(r -> r.hostFacts().forEach(h -> byHost.put(h.host(), h)));
    return List.copyOf(byHost.values());
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
