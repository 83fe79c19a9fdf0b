package io.netpulse.launcher.report;

import io.netpulse.common.Csv;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The report as CSV (RFC 4180: CRLF, quoted where needed): one row per test and metric with the same
 * fields as the Markdown table, every digit kept, and the unit in its own column; then the labels of the plan the
 * row's execution ran, a column label_KEY per key ({@link Csv#labelKeys}: as the dashboard's download).
 */
final class CsvReport {

  private CsvReport() {}

  static void write(PlanReport report, PrintWriter out) {
    List<Integer> reps = report.repetitionNumbers();
    List<String> header = new ArrayList<>(List.of("plan", "execution", "test", "type", "metric", "unit"));
    reps.forEach(r -> header.add("run_" + r));
    header.addAll(List.of("mean", "stddev", "ci95", "n", "hosts", "run_ids"));
    header.addAll(Csv.stopHeader(reps));
    List<String> labelKeys = Csv.labelKeys(report.sections().stream().map(s -> s.result().labels()).toList());
    List<String> headerCells = new ArrayList<>(header.stream().map(Csv::field).toList());
    headerCells.addAll(Csv.labelHeader(labelKeys));
    row(out, headerCells);
    for (MetricSection s : report.sections()) {
      List<String> cells = new ArrayList<>(List.of(text(report.plan()), text(s.result().execution()),
          text(s.test()), text(s.type()), text(s.metric()), text(s.unit())));
      reps.forEach(r -> cells.add(ReportText.exact(s.result().values().get(r))));
      cells.addAll(List.of(ReportText.exact(s.result().mean()), ReportText.exact(s.result().stddev()),
          ReportText.exact(s.result().ci95()), Integer.toString(s.result().n()),
          text(s.result().hosts() == null ? "" : String.join(" ", s.result().hosts())),
          text(s.result().runs() == null ? "" : String.join(" ", s.result().runs()))));
      cells.addAll(Csv.stopCells(reps.stream().map(r -> s.result().stops().get(r)).toList(), ReportText::exact));
      cells.addAll(Csv.labelCells(labelKeys, s.result().labels()));
      row(out, cells);
    }
    out.flush();
  }

  /** A text cell, defused and quoted; numbers are ours and go in as they are. */
  private static String text(String s) {
    return Csv.field(s);
  }

  private static void row(PrintWriter out, List<String> cells) {
    out.print(String.join(",", cells));
    out.print("\r\n");
  }
}
