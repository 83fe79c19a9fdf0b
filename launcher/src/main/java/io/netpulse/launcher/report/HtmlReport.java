package io.netpulse.launcher.report;

import io.netpulse.launcher.run.ResultTable;
import java.io.PrintWriter;
import java.util.List;

/**
 * The report as one HTML file that works offline: uPlot, its stylesheet, the data and the chart code are
 * all inline. Text from the topics goes into the markup HTML-escaped and into the charts only through the
 * JSON data block (read with JSON.parse, shown with textContent), never concatenated into script.
 */
final class HtmlReport {

  private HtmlReport() {}

  static void write(PlanReport report, PrintWriter out) {
    String plan = ReportText.html(report.plan());
    out.println("<!doctype html>");
    out.println("<html lang=\"en\">");
    out.println("<head>");
    out.println("<meta charset=\"utf-8\">");
    out.println("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    out.println("<title>netpulse report: " + plan + "</title>");
    out.println("<style>" + UplotAssets.uplotStyle() + "</style>");
    out.println("<style>" + UplotAssets.reportStyle() + "</style>");
    out.println("</head>");
    out.println("<body>");
    out.println("<header><h1>netpulse report <span class=\"plan\">" + plan + "</span></h1>");
    out.println("<p class=\"meta\">execution " + ReportText.html(String.join(", ", report.executions()))
        + " &middot; results from " + ReportText.html(report.resultsTopic()) + " read at "
        + ReportText.html(ReportText.utc(report.readAtMs())) + "</p>");
    if (!report.labels().isEmpty()) {
      out.println("<p class=\"meta labels\">labels " + ReportText.html(
          io.netpulse.launcher.run.ResultTable.labels(report.labels())) + "</p>");
    }
    for (io.netpulse.common.event.HostInfo h : report.hostFacts()) {
      out.println("<p class=\"meta host\">host " + ReportText.html(h.host()) + ": kernel " + ReportText.html(h.kernel())
          + ReportText.html(io.netpulse.launcher.run.ResultTable.machine(h)) + "</p>");
    }
    out.println("</header>");
    out.println("<main>");
    table(report, out);
    for (int i = 0; i < report.sections().size(); i++) {
      section(report.sections().get(i), i, out);
    }
    out.println("</main>");
    out.println("<script type=\"application/json\" id=\"report-data\">" + ChartData.json(report) + "</script>");
    out.println("<script>" + UplotAssets.uplotScript() + "</script>");
    out.println("<script>" + UplotAssets.reportScript() + "</script>");
    out.println("</body>");
    out.println("</html>");
    out.flush();
  }

  private static void table(PlanReport report, PrintWriter out) {
    List<Integer> reps = report.repetitionNumbers();
    StringBuilder b = new StringBuilder("<table class=\"results\"><thead><tr><th>test</th><th>metric</th><th>unit</th>");
    reps.forEach(r -> b.append("<th>run ").append(r).append("</th>"));
    b.append("<th>mean</th><th>stddev</th><th>&plusmn; ci95</th><th>n</th><th>stop</th></tr></thead><tbody>");
    for (MetricSection s : report.sections()) {
      b.append("<tr><td>").append(ReportText.html(s.test())).append("</td><td>").append(ReportText.html(s.metric()))
          .append("</td><td>").append(ReportText.html(s.unit())).append("</td>");
      reps.forEach(r -> num(b, s.result().values().get(r)));
      num(b, s.result().mean());
      num(b, s.result().stddev());
      num(b, s.result().ci95());
      b.append("<td class=\"num\">").append(s.result().n()).append("</td><td>")
          .append(ReportText.html(io.netpulse.launcher.run.ResultTable.stops(s.result()))).append("</td></tr>");
    }
    b.append("</tbody></table>");
    out.println(b);
  }

  private static void num(StringBuilder b, Double v) {
    b.append("<td class=\"num\">").append(ReportText.html(ReportText.number(v))).append("</td>");
  }

  private static void section(MetricSection s, int index, PrintWriter out) {
    out.println("<section class=\"metric\" id=\"section-" + index + "\">");
    out.println("<h2>" + ReportText.html(s.test()) + " <span class=\"sep\">/</span> " + ReportText.html(s.metric())
        + " <span class=\"unit\">(" + ReportText.html(s.unit()) + ")</span></h2>");
    out.println("<p class=\"meta\">mean " + ReportText.html(ReportText.number(s.result().mean())) + " "
        + ReportText.html(s.unit()) + (s.result().ci95() == null ? ""
            : " &plusmn; " + ReportText.html(ReportText.number(s.result().ci95())) + " " + ReportText.html(s.unit())
                + " (95 % CI)") + " over " + s.result().n() + " repetitions" + where(s) + "</p>");
    for (Repetition r : s.repetitions()) {
      if (r.climb() != null) { // whose limit the figure is: the SUT's, or the client's
        out.println("<p class=\"meta climb\">repetition " + r.repetition() + ": "
            + ReportText.html(ResultTable.climbNote(r.climb())) + "</p>");
      }
      if (r.cpuNote() != null) { // a saturated host, or netpulse's own machine, can be the limit rather than the net
        boolean flagged = !io.netpulse.launcher.run.CpuNotes.flags(r.cpu(), r.sharedWithNetpulse()).isEmpty();
        out.println("<p class=\"meta cpu" + (flagged ? " flagged" : "") + "\">repetition " + r.repetition() + ": "
            + ReportText.html(r.cpuNote()) + "</p>");
      }
    }
    String seeds = io.netpulse.launcher.run.SeedFigures.explain(s.metric());
    if (seeds != null) {
      out.println("<p class=\"meta\">" + ReportText.html(seeds) + "</p>");
    }
    out.println("<div class=\"charts\">");
    if (!s.series().isEmpty()) {
      out.println("<figure><div class=\"chart\" id=\"series-" + index + "\"></div><figcaption>1-s "
          + ReportText.html(s.perSecondMetric()) + " (" + ReportText.html(s.perSecondUnit())
          + ") per repetition, from the start of its measuring phase</figcaption></figure>");
    } else if (s.perSecondMetric() != null) {
      out.println("<p class=\"none\">no 1-s " + ReportText.html(s.perSecondMetric())
          + " rows found for these repetitions on the metrics topic</p>");
    }
    out.println("<figure><div class=\"chart\" id=\"bars-" + index + "\"></div><figcaption>each repetition's "
        + ReportText.html(s.metric()) + " (" + ReportText.html(s.unit())
        + "), the mean (line) and its 95 % confidence interval (band)</figcaption></figure>");
    out.println("</div>");
    out.println("</section>");
  }

  private static String where(MetricSection s) {
    List<String> at = s.series().stream()
        .map(x -> x.host() + (x.iface() == null ? "" : "/" + x.iface())).distinct().toList();
    return at.isEmpty() ? "" : ", 1-s rates of " + ReportText.html(String.join(", ", at));
  }
}
