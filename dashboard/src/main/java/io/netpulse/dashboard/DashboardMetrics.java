package io.netpulse.dashboard;

import java.util.List;
import java.util.Map;

/** The dashboard's own figures in Prometheus text format (0.0.4), for {@code /metrics}. */
final class DashboardMetrics {

  private static final List<String> FEEDS = List.of("live", "runs", "fleet", "results");

  private DashboardMetrics() {}

  static String text(DashboardState state, EventStream events) {
    StringBuilder out = new StringBuilder();
    family(out, "netpulse_dashboard_records_total", "counter", "Records read from each topic.");
    byTopic(out, "netpulse_dashboard_records_total", state.consumedByTopic());
    family(out, "netpulse_dashboard_records_skipped_total", "counter",
        "Records that could not be read (bad JSON or missing fields), by topic.");
    byTopic(out, "netpulse_dashboard_records_skipped_total", state.skippedByTopic());
    family(out, "netpulse_dashboard_sse_clients", "gauge", "Browsers connected to each live feed.");
    for (String feed : FEEDS) {
      out.append("netpulse_dashboard_sse_clients{feed=\"").append(feed).append("\"} ")
          .append(events.clients(feed)).append('\n');
    }
    family(out, "netpulse_dashboard_runs", "gauge", "Runs held for the live view.");
    out.append("netpulse_dashboard_runs ").append(state.runs().size()).append('\n');
    family(out, "netpulse_dashboard_rate_series", "gauge", "Rate series (host, iface, metric, window) held.");
    out.append("netpulse_dashboard_rate_series ").append(state.rates().size()).append('\n');
    return out.toString();
  }

  private static void family(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void byTopic(StringBuilder out, String name, Map<String, Long> counts) {
    counts.forEach((topic, n) -> out.append(name).append("{topic=\"").append(label(topic)).append("\"} ")
        .append(n).append('\n'));
  }

  /** Label values escape backslash, double quote and line feed. */
  static String label(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
