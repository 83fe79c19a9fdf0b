package io.netpulse.launcher.report;

import io.netpulse.launcher.run.ResultTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The report as Markdown: the result table shaped like the seeds' (and {@code netpulse run}'s), one row
 * per test and metric with each repetition, mean, stddev and 95 % interval and the unit, then when each
 * repetition measured and where, with its hosts' CPU use and its flags (a saturated CPU, netpulse's own machine).
 */
final class MarkdownReport {

  private MarkdownReport() {}

  static void write(PlanReport report, PrintWriter out) {
    out.println("# netpulse report: plan " + ReportText.markdown(report.plan()));
    out.println();
    out.println("Execution " + String.join(", ", report.executions().stream().map(ReportText::markdown).toList())
        + "; results from " + ReportText.markdown(report.resultsTopic()) + " read at "
        + ReportText.utc(report.readAtMs()) + ". Each run is one repetition's value; ± ci95 is the half-width "
        + "of the 95 % confidence interval of the mean (Student t).");
    out.println();
    if (!report.labels().isEmpty()) {
      out.println("Labels: " + ReportText.markdown(io.netpulse.launcher.run.ResultTable.labels(report.labels())));
      out.println();
    }
    for (io.netpulse.common.event.HostInfo h : report.hostFacts()) {
      out.println("- host " + ReportText.markdown(h.host()) + ": kernel " + ReportText.markdown(h.kernel())
          + ReportText.markdown(io.netpulse.launcher.run.ResultTable.machine(h)) + ", " + ReportText.markdown(
              String.valueOf(h.iface())) + " with " + h.rxQueues() + " queue(s)");
    }
    if (!report.hostFacts().isEmpty()) {
      out.println();
    }
    List<Integer> reps = report.repetitionNumbers();
    List<String> header = new ArrayList<>(List.of("test", "metric", "unit"));
    reps.forEach(r -> header.add("run " + r));
    header.addAll(List.of("mean", "stddev", "± ci95", "n", "stop"));
    row(out, header);
    List<String> rule = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      rule.add(i < 3 || i == header.size() - 1 ? "---" : "---:");
    }
    row(out, rule);
    for (MetricSection s : report.sections()) {
      List<String> cells = new ArrayList<>(List.of(ReportText.markdown(s.test()), ReportText.markdown(s.metric()),
          ReportText.markdown(s.unit())));
      reps.forEach(r -> cells.add(ReportText.number(s.result().values().get(r))));
      cells.addAll(List.of(ReportText.number(s.result().mean()), ReportText.number(s.result().stddev()),
          ReportText.number(s.result().ci95()), Integer.toString(s.result().n()),
          ReportText.markdown(io.netpulse.launcher.run.ResultTable.stops(s.result()))));
      row(out, cells);
    }
    report.sections().stream().map(s -> io.netpulse.launcher.run.SeedFigures.explain(s.metric()))
        .filter(java.util.Objects::nonNull).distinct().forEach(note -> {
          out.println();
          out.println(ReportText.markdown(note));
        });
    out.println();
    out.println("## Repetitions");
    out.println();
    row(out, List.of("test", "repetition", "run", "sut", "interface", "measuring from", "to", "seconds", "outcome",
        "CPU and flags"));
    row(out, List.of("---", "---:", "---", "---", "---", "---", "---", "---:", "---", "---"));
    for (MetricSection s : report.sections()) {
      if (isFirstMetricOfTest(report, s)) {
        for (Repetition r : s.repetitions()) {
          row(out, List.of(ReportText.markdown(s.test()), Integer.toString(r.repetition()),
              ReportText.markdown(r.run()), ReportText.markdown(r.sut()), ReportText.markdown(r.iface()),
              ReportText.utc(r.measuringStart()), ReportText.utc(r.measuringEnd()),
              r.measured() ? ReportText.number(r.measuringMillis() / 1000.0) : "-",
              ReportText.markdown(r.outcome() + (r.reason() == null ? "" : ": " + r.reason())
                  + (r.climb() == null ? "" : "; " + ResultTable.climbNote(r.climb()))),
              r.cpuNote() == null ? "-" : ReportText.markdown(r.cpuNote())));
        }
      }
    }
    out.flush();
  }

  /** A test with several metrics shares its repetitions: list them once. */
  static boolean isFirstMetricOfTest(PlanReport report, MetricSection s) {
    return report.sections().stream().filter(x -> x.test().equals(s.test())).findFirst().orElse(s) == s;
  }

  private static void row(PrintWriter out, List<String> cells) {
    out.println("| " + String.join(" | ", cells) + " |");
  }
}
