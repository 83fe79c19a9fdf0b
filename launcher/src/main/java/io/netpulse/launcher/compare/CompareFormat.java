package io.netpulse.launcher.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.netpulse.common.compare.CompareJson;
import io.netpulse.common.compare.CompareReport;
import io.netpulse.common.compare.ExecutionResults;
import io.netpulse.common.compare.MetricComparison;
import io.netpulse.common.compare.SampleStats;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.report.ReportText;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The formats of {@code netpulse compare}: an aligned table for terminals, Markdown for tickets, JSON for programs. */
public enum CompareFormat {
  text, md, json,
  /** The old name of {@link #md} (report's --format says md), accepted one more release. */
  markdown;

  private static final List<String> HEADER =
      List.of("test", "metric", "unit", "A mean ± ci95 (n)", "B mean ± ci95 (n)", "B/A", "p", "verdict");

  /** @param failOnRegressionPct the gate's threshold when one was given (named in the output), else null */
  public void write(CompareReport report, Double failOnRegressionPct, PrintWriter out) {
    switch (this) {
      case text -> table(report, failOnRegressionPct, out, false);
      case md, markdown -> table(report, failOnRegressionPct, out, true);
      case json -> json(report, failOnRegressionPct, out);
    }
    out.flush();
  }

  private static void table(CompareReport r, Double gate, PrintWriter out, boolean md) {
    out.println((md ? "# netpulse compare\n\n" : "") + "A: " + side(r.a(), md) + (md ? "  " : ""));
    out.println("B: " + side(r.b(), md));
    out.println();
    List<List<String>> rows = new ArrayList<>();
    for (MetricComparison c : r.rows()) {
      rows.add(List.of(c.test(), c.metric(), c.unit() == null ? "-" : c.unit(), stats(c.a()), stats(c.b()),
          ratio(c.ratio()), p(c), c.verdict().text() + " (" + c.direction().text() + ")"));
    }
    if (md) {
      out.println("| " + String.join(" | ", HEADER) + " |");
      out.println("|---|---|---|---:|---:|---:|---:|---|");
      rows.forEach(row -> out.println("| " + String.join(" | ", row.stream().map(ReportText::markdown).toList()) + " |"));
    } else {
      int[] w = new int[HEADER.size()];
      for (int i = 0; i < w.length; i++) {
        w[i] = HEADER.get(i).length();
        for (List<String> row : rows) {
          w[i] = Math.max(w[i], row.get(i).length());
        }
      }
      out.println(line(HEADER, w));
      rows.forEach(row -> out.println(line(row, w)));
    }
    out.println();
    if (!r.onlyInA().isEmpty()) {
      out.println(escape("only in A (not compared): " + String.join(", ", r.onlyInA()), md) + (md ? "  " : ""));
    }
    if (!r.onlyInB().isEmpty()) {
      out.println(escape("only in B (not compared): " + String.join(", ", r.onlyInB()), md) + (md ? "  " : ""));
    }
    out.println("B/A is B's mean ÷ A's; p is Welch's two-sided t-test; verdicts are B's, at alpha "
        + MetricComparison.ALPHA + "; ± is the 95 % interval of the mean.");
    if (gate != null) {
      List<MetricComparison> worse = r.regressions(gate);
      out.println(worse.isEmpty() ? "No metric is significantly worse by more than " + pct(gate) + "."
          : escape("REGRESSION: significantly worse by more than " + pct(gate) + ": " + String.join(", ",
              worse.stream().map(c -> c.test() + "/" + c.metric() + " " + signedPct(c.changePct())).toList()), md));
    }
  }

  private static String side(ExecutionResults e, boolean md) {
    StringBuilder b = new StringBuilder();
    b.append(e.execution() != null ? "execution " + e.execution() : "execution unknown");
    if (e.plan() != null) {
      b.append(", plan ").append(e.plan());
    }
    if (!e.labels().isEmpty()) {
      List<String> kv = new ArrayList<>();
      e.labels().forEach((k, v) -> kv.add(k + "=" + v));
      b.append(", labels ").append(String.join(",", kv));
    }
    b.append(" (").append(e.source()).append(')');
    return escape(b.toString(), md);
  }

  private static String escape(String s, boolean md) {
    return md ? ReportText.markdown(s) : s;
  }

  private static String line(List<String> cells, int[] w) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      boolean right = i >= 3 && i <= 6;
      String fill = " ".repeat(w[i] - c.length());
      b.append(right ? fill + c : c + (i == cells.size() - 1 ? "" : fill));
      if (i < cells.size() - 1) {
        b.append("  ");
      }
    }
    return b.toString();
  }

  private static String stats(SampleStats s) {
    if (s.n() == 0) {
      return "-";
    }
    return ReportText.number(s.mean()) + (s.ci95() == null ? "" : " ± " + ReportText.number(s.ci95()))
        + " (" + s.n() + ")";
  }

  private static String ratio(Double r) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.3f", r);
  }

  private static String p(MetricComparison c) {
    if (c.welch() == null) {
      return "-";
    }
    double p = c.welch().p();
    return p < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.4f", p);
  }

  private static String pct(double v) {
    return ReportText.number(v) + " %";
  }

  private static String signedPct(Double v) {
    return String.format(Locale.ROOT, "%+.1f %%", v);
  }

  private static void json(CompareReport r, Double gate, PrintWriter out) {
    try {
      out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(CompareJson.of(r, gate)));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
