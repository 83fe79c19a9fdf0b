package io.netpulse.common;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The per-second sample metric that shows how a test of a given type is going (e.g. rx_bps for rx_bandwidth), for
 * live charts and reports. Only tests measured from per-second samplers (sar, ss) have one; tests whose value is a
 * tool's final figure (latency, TCP_CRR, …) do not. The processor's result rules must agree (a processor test checks).
 */
public final class PerSecondMetric {

  private static final Map<String, String> BY_TYPE = Map.of(
      "rx_bandwidth", "rx_bps",
      "tx_bandwidth", "tx_bps",
      "iperf_bandwidth", "rx_bps",
      "rx_pps", "rx_pps",
      "tx_pps", "tx_pps",
      "high_pps", "rx_pps",
      "concurrent_connections", "tcp_estab",
      "udp_stream", "rx_pps");

  /** Types that have their metric only when the run names the SUT's interface: the SUT ran sar (seed 002's shape). */
  private static final java.util.Set<String> WHEN_SUT_SAR = java.util.Set.of("udp_stream");

  private PerSecondMetric() {}

  /** The metric for a plan test type ("rx_bandwidth", "rx-bandwidth" alike), if the type has one. */
  public static Optional<String> of(String type) {
    return type == null ? Optional.empty() : Optional.ofNullable(BY_TYPE.get(normalise(type)));
  }

  /**
   * The metric for a run of {@code type} whose lifecycle names {@code iface} (null: none): udp_stream has sar's rx_pps
   * only when its SUT ran sar, which the run says by naming the SUT's interface.
   */
  public static Optional<String> of(String type, String iface) {
    return of(type).filter(m -> iface != null || !WHEN_SUT_SAR.contains(normalise(type)));
  }

  private static String normalise(String type) {
    return type.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  /** Every type that has one, with its metric. */
  public static Map<String, String> all() {
    return BY_TYPE;
  }
}
