package io.netpulse.launcher.report;

import java.io.PrintWriter;

/** The formats of {@code netpulse report}, each with its renderer and file extension. */
public enum ReportFormat {
  html, md, csv;

  public void write(PlanReport report, PrintWriter out) {
    switch (this) {
      case html -> HtmlReport.write(report, out);
      case md -> MarkdownReport.write(report, out);
      case csv -> CsvReport.write(report, out);
    }
  }

  /** The file an HTML report goes to by default: {@code PLAN-report.html}, the plan name made file-safe. */
  public String defaultFileName(String plan) {
    return plan.replaceAll("[^A-Za-z0-9._-]", "_").replaceAll("^\\.+", "_") + "-report." + name();
  }
}
