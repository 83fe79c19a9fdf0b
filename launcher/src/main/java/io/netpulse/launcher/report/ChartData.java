package io.netpulse.launcher.report;

import io.netpulse.common.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The data the HTML report's charts draw, as JSON for a {@code <script type="application/json">} block:
 * per test and metric the per-repetition values with mean, stddev and ci95, and the 1-s series aligned on
 * one x axis (seconds since each repetition's measuring began, so repetitions overlay).
 */
final class ChartData {

  private ChartData() {}

  /**
   * JSON safe inside a script element: '<', '>' and '&' only occur inside JSON strings, where their \\u
   * escapes mean the same, so no "</script>" or "<!--" from a topic can end or bend the block.
   */
  static String json(PlanReport report) {
    return Json.text(of(report)).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
  }

  static Map<String, Object> of(PlanReport report) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("plan", report.plan());
    root.put("executions", report.executions());
    List<Map<String, Object>> sections = new ArrayList<>();
    for (MetricSection s : report.sections()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("test", s.test());
      m.put("type", s.type());
      m.put("metric", s.metric());
      m.put("unit", s.unit());
      List<Map<String, Object>> values = new ArrayList<>();
      s.result().values().forEach((rep, v) -> values.add(Map.of("repetition", rep, "value", v)));
      m.put("values", values);
      m.put("mean", s.result().mean());
      m.put("stddev", s.result().stddev());
      m.put("ci95", s.result().ci95());
      m.put("n", s.result().n());
      m.put("perSecond", s.series().isEmpty() ? null : perSecond(s));
      sections.add(m);
    }
    root.put("sections", sections);
    return root;
  }

  /** uPlot wants one x array shared by every series, with null where a series has no point. */
  private static Map<String, Object> perSecond(MetricSection s) {
    TreeSet<Double> xs = new TreeSet<>();
    for (SecondSeries series : s.series()) {
      series.points().forEach(p -> xs.add(p.offsetSeconds(series.measuringStart())));
    }
    List<Double> x = new ArrayList<>(xs);
    List<Map<String, Object>> lines = new ArrayList<>();
    for (SecondSeries series : s.series()) {
      Double[] y = new Double[x.size()];
      for (SecondSeries.Point p : series.points()) {
        y[x.indexOf(p.offsetSeconds(series.measuringStart()))] = p.mean();
      }
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("repetition", series.repetition());
      line.put("run", series.run());
      line.put("host", series.host());
      line.put("iface", series.iface());
      line.put("values", java.util.Arrays.asList(y)); // nulls: gaps
      lines.add(line);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", s.perSecondMetric());
    m.put("unit", s.perSecondUnit());
    m.put("x", x);
    m.put("series", lines);
    return m;
  }
}
