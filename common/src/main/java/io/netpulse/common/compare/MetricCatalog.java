package io.netpulse.common.compare;

import java.util.Locale;
import java.util.Map;

/**
 * The one place that knows which way each result metric improves. It lists every metric the processor's
 * {@code RunValueRules} produces (and docs/plans.md's table of test types); a metric it does not list is judged by its unit
 * (rates and counts: higher, times: lower), so that a new metric is not silently judged the wrong way round.
 */
public final class MetricCatalog {

  /** Suffix of the seeds' own figure beside a sar bit rate ({@code rx_bps_as_seeds}): same direction. */
  private static final String AS_SEEDS = "_as_seeds";

  private static final Map<String, Direction> METRICS = Map.ofEntries(
      // bandwidth, bit/s: sar on the SUT, iperf's sender totals, netperf UDP_STREAM
      Map.entry("rx_bps", Direction.HIGHER_IS_BETTER),
      Map.entry("tx_bps", Direction.HIGHER_IS_BETTER),
      Map.entry("sender_bps", Direction.HIGHER_IS_BETTER),
      Map.entry("send_bps", Direction.HIGHER_IS_BETTER),
      Map.entry("recv_bps", Direction.HIGHER_IS_BETTER),
      // packet rates, packets/s
      Map.entry("rx_pps", Direction.HIGHER_IS_BETTER),
      Map.entry("tx_pps", Direction.HIGHER_IS_BETTER),
      Map.entry("send_pps", Direction.HIGHER_IS_BETTER),
      Map.entry("recv_pps", Direction.HIGHER_IS_BETTER),
      // connections and transactions
      Map.entry("connections_per_s", Direction.HIGHER_IS_BETTER),
      Map.entry("tcp_estab", Direction.HIGHER_IS_BETTER),
      Map.entry("trans_per_s", Direction.HIGHER_IS_BETTER),
      // latency: qperf, ping, sockperf
      Map.entry("tcp_lat_us", Direction.LOWER_IS_BETTER),
      Map.entry("udp_lat_us", Direction.LOWER_IS_BETTER),
      Map.entry("rtt_avg_ms", Direction.LOWER_IS_BETTER),
      Map.entry("avg_latency_us", Direction.LOWER_IS_BETTER),
      Map.entry("p99_us", Direction.LOWER_IS_BETTER));

  private MetricCatalog() {}

  /** The metrics the catalog names, for documentation and tests. */
  public static Map<String, Direction> known() {
    return METRICS;
  }

  /**
   * @param metric a result's metric, e.g. {@code rx_bps}
   * @param unit   its unit, used only for metrics the catalog does not name (may be null)
   */
  public static Direction direction(String metric, String unit) {
    String m = metric == null ? "" : metric.toLowerCase(Locale.ROOT);
    if (m.endsWith(AS_SEEDS)) {
      m = m.substring(0, m.length() - AS_SEEDS.length());
    }
    Direction known = METRICS.get(m);
    return known != null ? known : byUnit(unit);
  }

  private static Direction byUnit(String unit) {
    if (unit == null) {
      return Direction.UNKNOWN;
    }
    String u = unit.strip().toLowerCase(Locale.ROOT);
    if (u.equals("us") || u.equals("µs") || u.equals("ms") || u.equals("s") || u.equals("ns")) {
      return Direction.LOWER_IS_BETTER; // a time: latency
    }
    if (u.endsWith("/s") || u.equals("connections")) {
      return Direction.HIGHER_IS_BETTER; // a rate or a count held
    }
    return Direction.UNKNOWN;
  }
}
