package io.netpulse.processor.run;

import io.netpulse.common.Units;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Test type → the metric(s) it reports and how a repetition's value is made, as the seeds define it
 *. Test names are matched case-insensitively with '-' read as '_'.
 */
public final class RunValueRules {

  /** How the samples or tool figures of one repetition make its value. */
  public enum How {
    /**
     * Mean of the per-second sar samples over the measuring window on the run's SUT and interface
     * (the busiest series when the run names none).
     */
    MEAN_ON_SUT,
    /** Sum of each tool instance's printed figure (netperf fan-out). */
    SUM_OVER_INSTANCES,
    /** The tool's figure as printed (mean when a repetition ran it more than once). */
    AS_PRINTED,
    /** The highest sample over the measuring window (concurrent connections). */
    MAX_OVER_WINDOW
  }

  /**
   * @param metric       name the value is reported under
   * @param sourceMetric sample metric it is made of
   * @param how          how
   * @param unit         unit of the value
   * @param whenSutSar   made only for runs that name the SUT's interface, i.e. whose SUT ran sar for this value
   *                     (udp_stream in seed 002's shape); a type's other runs do without it
   */
  public record Rule(String metric, String sourceMetric, How how, String unit, boolean whenSutSar) {

    public Rule(String metric, String sourceMetric, How how, String unit) {
      this(metric, sourceMetric, how, unit, false);
    }

    /** Values made from per-second samplers judged by time, rather than from tool figures. */
    public boolean fromSamples() {
      return how == How.MEAN_ON_SUT || how == How.MAX_OVER_WINDOW;
    }
  }

  private static Rule rule(String metric, String source, How how, String unit) {
    return new Rule(metric, source, how, unit);
  }

  /** Unit of new connections; Units has no constant for it. */
  public static final String CONNECTIONS_PER_S = "connections/s";

  private static final List<Rule> TCP_LAT = List.of(rule("tcp_lat_us", "tcp_lat_us", How.AS_PRINTED, Units.MICROSECONDS));
  private static final List<Rule> UDP_LAT = List.of(rule("udp_lat_us", "udp_lat_us", How.AS_PRINTED, Units.MICROSECONDS));
  private static final List<Rule> PING = List.of(rule("rtt_avg_ms", "rtt_avg_ms", How.AS_PRINTED, Units.MILLISECONDS));
  private static final List<Rule> SOCKPERF = List.of(
      rule("avg_latency_us", "avg_latency_us", How.AS_PRINTED, Units.MICROSECONDS),
      rule("p99_us", "p99_us", How.AS_PRINTED, Units.MICROSECONDS));
  private static final List<Rule> RX_BPS = List.of(rule("rx_bps", "rx_bps", How.MEAN_ON_SUT, Units.BITS_PER_S));
  private static final List<Rule> RX_PPS = List.of(rule("rx_pps", "rx_pps", How.MEAN_ON_SUT, Units.PACKETS_PER_S));
  private static final List<Rule> CRR = List.of(
      rule("connections_per_s", "trans_per_s", How.SUM_OVER_INSTANCES, CONNECTIONS_PER_S));

  /**
   * Keyed by the plan's test types (launcher TestType yaml names) and, for runs whose lifecycle
   * carries no type, by the older per-tool test names (tcp_lat, ping, tcp_crr, ...).
   */
  private static final Map<String, List<Rule>> BY_TEST = Map.ofEntries(
      // plan test types
      Map.entry("latency", concat(TCP_LAT, UDP_LAT, PING)),
      Map.entry("sockperf_latency", SOCKPERF),
      Map.entry("rx_bandwidth", RX_BPS),
      Map.entry("tx_bandwidth", List.of(rule("tx_bps", "tx_bps", How.MEAN_ON_SUT, Units.BITS_PER_S))),
      // seed 002 reads sar on the SUT; iperf's own [SUM] totals (sender_bps), added up over the client hosts, are
      // the cross-check
      Map.entry("iperf_bandwidth", List.of(RX_BPS.get(0),
          rule("sender_bps", "sender_bps", How.SUM_OVER_INSTANCES, Units.BITS_PER_S))),
      Map.entry("rx_pps", RX_PPS),
      Map.entry("tx_pps", List.of(rule("tx_pps", "tx_pps", How.MEAN_ON_SUT, Units.PACKETS_PER_S))),
      Map.entry("high_pps", RX_PPS),
      Map.entry("new_connections", CRR),
      Map.entry("concurrent_connections", List.of(
          rule("tcp_estab", "tcp_estab", How.MAX_OVER_WINDOW, Units.CONNECTIONS))),
      Map.entry("tcp_rr", List.of(
          rule("trans_per_s", "trans_per_s", How.SUM_OVER_INSTANCES, Units.TRANSACTIONS_PER_S),
          RX_PPS.get(0))),
      // seed 002 (the SUT runs sar): sar's rx_pps on the SUT, the senders' sums beside it as a cross-check;
      // seed 003 (no sar on the SUT): its figure is the send line's, the receive line shows what crossed the link
      Map.entry("udp_stream", List.of(
          new Rule("rx_pps", "rx_pps", How.MEAN_ON_SUT, Units.PACKETS_PER_S, true),
          rule("send_pps", "send_pps", How.SUM_OVER_INSTANCES, Units.PACKETS_PER_S),
          rule("recv_pps", "recv_pps", How.SUM_OVER_INSTANCES, Units.PACKETS_PER_S),
          rule("send_bps", "send_bps", How.SUM_OVER_INSTANCES, Units.BITS_PER_S),
          rule("recv_bps", "recv_bps", How.SUM_OVER_INSTANCES, Units.BITS_PER_S))),
      // per-tool names of runs without a type
      Map.entry("tcp_lat", TCP_LAT),
      Map.entry("udp_lat", UDP_LAT),
      Map.entry("ping", PING),
      Map.entry("sockperf_lat", SOCKPERF),
      Map.entry("tcp_crr", CRR));

  @SafeVarargs
  private static List<Rule> concat(List<Rule>... lists) {
    return java.util.Arrays.stream(lists).flatMap(List::stream).toList();
  }

  private RunValueRules() {}

  /**
   * The rules of a test type (a plan's type such as {@code rx_bandwidth}, or an older per-tool name);
   * empty for an unknown one (its runs then give no value).
   */
  public static List<Rule> forTest(String test) {
    return test == null ? List.of() : BY_TEST.getOrDefault(normalise(test), List.of());
  }

  /**
   * The rules that make a repetition's values: the type's rules, less those made only when the SUT ran sar for the
   * value ({@link Rule#whenSutSar}) if the run names no SUT interface ({@code iface} null).
   */
  public static List<Rule> forRun(String test, String iface) {
    return forTest(test).stream().filter(r -> iface != null || !r.whenSutSar()).toList();
  }

  /**
   * Tool figure → the per-instance rate the tool prints each second while it runs (netperf demo mode
   * {@code -D 1}; iperf 2 {@code -i 1 --sum-only}, one row per second for all its streams): a repetition stopped
   * early on steady has no final figure, and the mean over its window of these rates stands for it (summed over
   * instances for a sum, averaged for a printed figure). netperf UDP_STREAM's interim lines are absent here on
   * purpose: they give the sender's rate only, and its receive figures come from netserver at the end.
   */
  private static final Map<String, String> INTERIM = Map.of(
      "trans_per_s", "interim_trans_per_s",
      "sender_bps", "interim_sender_bps");

  /** The interim metric standing in for {@code rule}'s figure when the tool was stopped early, or null. */
  public static String interimOf(Rule rule) {
    return rule.how() == How.SUM_OVER_INSTANCES || rule.how() == How.AS_PRINTED ? INTERIM.get(rule.sourceMetric())
        : null;
  }

  /** The figure an interim metric stands for ({@code interim_trans_per_s} → {@code trans_per_s}), or null. */
  public static String summedOf(String interimMetric) {
    return INTERIM.entrySet().stream().filter(e -> e.getValue().equals(interimMetric)).map(Map.Entry::getKey)
        .findFirst().orElse(null);
  }

  public static String normalise(String test) {
    return test.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  public static java.util.Set<String> tests() {
    return new java.util.TreeSet<>(BY_TEST.keySet());
  }
}
