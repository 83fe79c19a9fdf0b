package io.netpulse.launcher.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The report as CSV (RFC 4180: CRLF, quoted where needed): one row per test and metric with the same
 * fields as the Markdown table, every digit kept, and the unit in its own column.
 */
final class CsvReport {

  private CsvReport() {}

  static void write(PlanReport report, PrintWriter out) {
    List<Integer> reps = report.repetitionNumbers();
    List<String> header = new ArrayList<>(List.of("plan", "execution", "test", "type", "metric", "unit"));
    reps.forEach(r -> header.add("run_" + r));
    header.addAll(List.of("mean", "stddev", "ci95", "n", "hosts", "run_ids"));
    row(out, header);
    for (MetricSection s : report.sections()) {
      List<String> cells = new ArrayList<>(List.of(text(report.plan()), text(s.result().execution()),
          text(s.test()), text(s.type()), text(s.metric()), text(s.unit())));
      reps.forEach(r -> cells.add(ReportText.exact(s.result().values().get(r))));
      cells.addAll(List.of(ReportText.exact(s.result().mean()), ReportText.exact(s.result().stddev()),
          ReportText.exact(s.result().ci95()), Integer.toString(s.result().n()),
          text(s.result().hosts() == null ? "" : String.join(" ", s.result().hosts())),
          text(s.result().runs() == null ? "" : String.join(" ", s.result().runs()))));
      row(out, cells);
    }
    out.flush();
  }

  /**
   * A text field: a leading = + - @ would make spreadsheets run it as a formula, so it gets a leading
   * apostrophe (OWASP's CSV-injection advice); numbers are written by us and never get one.
   */
  static String text(String s) {
    if (s == null) {
      return "";
    }
    if (!s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
      return "'" + s;
    }
    return s;
  }

  private static void row(PrintWriter out, List<String> cells) {
    List<String> quoted = cells.stream().map(CsvReport::quote).toList();
    out.print(String.join(",", quoted));
    out.print("\r\n");
  }

  static String quote(String s) {
    boolean needs = s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
        || (!s.isEmpty() && (s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' '));
    return needs ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
