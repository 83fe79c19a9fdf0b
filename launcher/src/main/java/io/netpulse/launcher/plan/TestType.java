package io.netpulse.launcher.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The test types a plan can ask for, each with the keys it accepts besides the common ones
 * ({@link #COMMON_KEYS}). Defaults follow the seeds and live in {@link PlanLoader}.
 */
public enum TestType {
  /** qperf tcp_lat udp_lat -m 64 and ping (seed 000). */
  LATENCY("message", "ping_count", "port"),
  /** sockperf sr --tcp / pp --tcp -m 14 (seeds 001, 004). */
  SOCKPERF_LATENCY("message", "port"),
  /** netperf TCP_STREAM -m 1440 fan-out into the SUT, sar rxkB/s on the SUT (seed 000). */
  RX_BANDWIDTH("streams", "streams_per_queue", "message", "port", "clients", "no_delay", "sar"),
  /** the SUT sends: netperf TCP_STREAM fan-out to netservers on the peer, sar txkB/s on the SUT. */
  TX_BANDWIDTH("streams", "streams_per_queue", "message", "port", "clients", "no_delay", "sar"),
  /** iperf -c -P queues (seed 002), iperf SUM line and sar rxkB/s on the SUT. */
  IPERF_BANDWIDTH("streams", "streams_per_queue", "rate", "port", "clients", "sar"),
  /** UDP into the SUT, iperf3 -u -b 0 -l 64 (seed 000) or netperf UDP_STREAM -m 1 (seed 001); sar rxpck/s. */
  RX_PPS("streams", "streams_per_queue", "tool", "message", "port", "clients", "rate", "no_delay", "sar"),
  /** the SUT sends UDP; sar txpck/s on the SUT. */
  TX_PPS("streams", "streams_per_queue", "tool", "message", "port", "clients", "rate", "no_delay", "sar"),
  /** several senders × sockperf tp --pps max -m 14 (seeds 001, 004 above 6 Mpps), optional IRQ affinity. */
  HIGH_PPS("senders", "streams", "message", "port", "irq_affinity", "sar"),
  /** netperf TCP_CRR -r 64 on N netserver ports, Trans. Rate summed (seed 000). */
  NEW_CONNECTIONS("streams", "streams_per_queue", "message", "port", "clients", "no_delay", "sar"),
  /** connection-holding client/server on ports 2000..64000 step 2000 (100 each), max of ss -s estab (seed 000). */
  CONCURRENT_CONNECTIONS("target", "tool", "clients", "port", "port_step", "listeners", "c1000k_dir",
      "ports_per_listener"),
  /** ≥ 300 × netperf TCP_RR -r 1,1 from the clients, Trans. Rate summed (seed 002). */
  TCP_RR("streams", "clients", "request", "response", "port", "no_delay", "sar"),
  /**
   * N clients → 1 server netperf UDP_STREAM -m 1 (pps) or -m 1400 (bps): msgs ok ÷ elapsed summed (seed 003), or,
   * with sar on the SUT, sar's rx_pps there with the sums beside it (seed 002).
   */
  UDP_STREAM("clients", "server", "message", "port", "reverse", "streams", "server_ports", "no_delay", "sar");

  /** Keys every test accepts. */
  public static final List<String> COMMON_KEYS = Common.KEYS;

  /** Holder, because an enum constructor may not read the enum's own static fields. */
  private static final class Common {
    static final List<String> KEYS = List.of("type", "name", "duration", "warmup", "repetitions", "sut", "peer");
  }

  private final Set<String> keys;

  TestType(String... ownKeys) {
    Set<String> all = new LinkedHashSet<>(Common.KEYS);
    all.addAll(List.of(ownKeys));
    this.keys = Set.copyOf(all);
    this.ordered = List.copyOf(all);
  }

  private final List<String> ordered;

  /** The name used in plans, e.g. {@code rx_bandwidth}. */
  public String yamlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean accepts(String key) {
    return keys.contains(key);
  }

  /** Accepted keys in documentation order. */
  public List<String> keys() {
    return ordered;
  }

  public static TestType fromYaml(String name) {
    for (TestType t : values()) {
      if (t.yamlName().equals(name)) {
        return t;
      }
    }
    return null;
  }

  public static List<String> yamlNames() {
    return java.util.Arrays.stream(values()).map(TestType::yamlName).toList();
  }
}
