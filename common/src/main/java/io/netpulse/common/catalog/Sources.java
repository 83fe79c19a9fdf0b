package io.netpulse.common.catalog;


/**
 * The names of the outputs netpulse reads: a sampler's or tool's lines carry one as their {@code source}, and it is
 * the format name of the parser that reads them ({@code netpulse parse --format}). Named once here, so that the
 * catalog's metrics, the samplers that produce them and the parsers agree by construction.
 */
public final class Sources {

  /** {@code sar -n DEV 1}: per-second interface counters. */
  public static final String SAR_DEV = "sar-dev";
  /** {@code ss -s} every second: socket counts. */
  public static final String SS_SUMMARY = "ss-summary";
  /** {@code /proc/net/dev} every second, for hosts without sysstat. */
  public static final String PROC_NET_DEV = "proc-net-dev";
  /** The {@code cpu} lines of {@code /proc/stat} every second: each host's CPU use. */
  public static final String PROC_STAT = "proc-stat";
  public static final String NETPERF = "netperf";
  public static final String IPERF = "iperf";
  public static final String IPERF3 = "iperf3";
  public static final String QPERF = "qperf";
  /**
   * qperf's tcp_lat as a loop of 1-s tests ({@code stdbuf -oL qperf SUT -t 1 -vvu -oo timeout:5:N:1 tcp_lat}), one
   * {@code latency} line a second; a line does not name its test, so each test's loop is an output of its own.
   */
  public static final String QPERF_TCP_LAT_LOOP = "qperf-tcp_lat";
  /** qperf's udp_lat as a loop of 1-s tests, as {@link #QPERF_TCP_LAT_LOOP}. */
  public static final String QPERF_UDP_LAT_LOOP = "qperf-udp_lat";
  public static final String SOCKPERF = "sockperf";
  public static final String PING = "ping";

  /** Measurement names on {@code metrics} and in the store, Telegraf's where Telegraf has the input. */
  public static final String NET = "net";
  public static final String NETSTAT = "netstat";
  public static final String CPU = "cpu";

  private Sources() {}

  /**
   * The measurement a source's values are written under on {@code metrics} and in the store, Telegraf's names where
   * Telegraf has the input: {@code net} for interface counters, {@code netstat} for the TCP table, {@code cpu}; else
   * the tool's name ({@code qperf} for qperf's 1-s loops too).
   */
  public static String measurementOf(String source) {
    if (source == null) {
      return "unknown";
    }
    return switch (source) {
      case SAR_DEV, PROC_NET_DEV -> NET;
      case SS_SUMMARY -> NETSTAT;
      case PROC_STAT -> CPU;
      case QPERF_TCP_LAT_LOOP, QPERF_UDP_LAT_LOOP -> QPERF; // one qperf measurement, a field per test's loop
      default -> source;
    };
  }
}
