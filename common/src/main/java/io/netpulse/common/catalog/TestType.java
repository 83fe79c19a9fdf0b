package io.netpulse.common.catalog;

import io.netpulse.common.Units;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A test type a plan can ask for, and everything the other parts need to know about it: the plan keys it accepts
 * besides {@link #COMMON_KEYS} and their defaults (the seeds'), the tools it may run, the procedure that builds its
 * commands (launcher), its result metrics (processor, report, dashboard, compare) and the per-second metric that shows
 * it live. Adding a type is an entry in {@link #ALL} below, a procedure named by {@link #procedure} and, for a new tool,
 * the tool's package in the tools module: nothing else is edited.
 *
 * @param yamlName        the name in plans, e.g. {@code rx_bandwidth}
 * @param ownKeys         plan keys it accepts besides the common ones, in documentation order
 * @param duration        default measuring time
 * @param numbers         defaults of numeric keys ({@code port}, {@code message}, {@code streams},
 *                        {@code streams_per_queue}); {@code key.tool} overrides {@code key} when that tool runs. No
 *                        {@code streams} default with {@code streams_per_queue} accepted means {@code auto}
 * @param tools           the tools it may run, the default first (a choice for the plan when there are several)
 * @param portPerStream   every stream has a port of its own from {@code port} on (checked against 65535 at load)
 * @param metrics         its result metrics, the main one first
 * @param perSecondMetric the sample metric that shows a run live (a per-second metric of {@code metrics}), or null
 *                        for a type whose value is a tool's final figure
 * @param procedure       name of the launcher's procedure for it ({@code bandwidth} is BandwidthProcedure)
 */
public record TestType(String yamlName, List<String> ownKeys, Duration duration, Map<String, Integer> numbers,
    List<String> tools, boolean portPerStream, List<Metric> metrics, String perSecondMetric, String procedure) {

  /** Keys every test accepts. */
  public static final List<String> COMMON_KEYS =
      List.of("type", "name", "duration", "warmup", "repetitions", "steady", "sut", "peer");

  private static final Metric RX_BPS = Metric.sarOnSut("rx_bps", Units.BITS_PER_S);
  private static final Metric RX_PPS_SAR = Metric.sarOnSut("rx_pps", Units.PACKETS_PER_S);
  /** qperf's latency tests, each with its 1-s loop (see {@link Sources#QPERF_TCP_LAT_LOOP}) for a precision stop. */
  private static final Metric TCP_LAT = Metric.printedLatency("tcp_lat_us", Units.MICROSECONDS, Sources.QPERF)
      .withMessageRateLoop(Sources.QPERF_TCP_LAT_LOOP, "interim_tcp_lat_msg_rate");
  private static final Metric UDP_LAT = Metric.printedLatency("udp_lat_us", Units.MICROSECONDS, Sources.QPERF)
      .withMessageRateLoop(Sources.QPERF_UDP_LAT_LOOP, "interim_udp_lat_msg_rate");
  private static final Metric PING_AVG =
      Metric.printedLatency("rtt_avg_ms", Units.MILLISECONDS, Sources.PING).withSeries("rtt_ms");
  private static final Metric SOCKPERF_AVG =
      Metric.printedLatency("avg_latency_us", Units.MICROSECONDS, Sources.SOCKPERF);
  private static final Metric SOCKPERF_P99 = Metric.printedLatency("p99_us", Units.MICROSECONDS, Sources.SOCKPERF);
  /** Unit of new connections; Units has no constant for it. */
  public static final String CONNECTIONS_PER_S = "connections/s";
  private static final Metric CRR = Metric.summed("connections_per_s", CONNECTIONS_PER_S, Sources.NETPERF,
      "trans_per_s", "interim_trans_per_s");

  private static final List<String> NETPERF_FAN_OUT =
      List.of("streams", "streams_per_queue", "message", "port", "clients", "no_delay", "sar");
  private static final List<String> PPS_KEYS =
      List.of("streams", "streams_per_queue", "tool", "message", "port", "clients", "rate", "no_delay", "sar");

  /** qperf tcp_lat udp_lat -m 64 and ping (seed 000). */
  public static final TestType LATENCY = type("latency", 10).keys("message", "ping_count", "port", "qperf_loop")
      .numbers("message", 64, "port", 19765).tools("qperf").metrics(TCP_LAT, UDP_LAT, PING_AVG).build();
  /** sockperf sr --tcp / pp --tcp -m 14 (seeds 001, 004). */
  public static final TestType SOCKPERF_LATENCY = type("sockperf_latency", 10).keys("message", "port")
      .numbers("message", 14, "port", 11111).tools("sockperf").metrics(SOCKPERF_AVG, SOCKPERF_P99).build();
  /** netperf TCP_STREAM -m 1440 fan-out into the SUT, sar rxkB/s on the SUT (seed 000). */
  public static final TestType RX_BANDWIDTH = type("rx_bandwidth", 30).keys(NETPERF_FAN_OUT)
      .numbers("message", 1440, "port", 5001, "streams_per_queue", 2).tools("netperf").portPerStream()
      .metrics(RX_BPS).perSecond("rx_bps").procedure("bandwidth").build();
  /** the SUT sends: netperf TCP_STREAM fan-out to netservers on the peer, sar txkB/s on the SUT. */
  public static final TestType TX_BANDWIDTH = type("tx_bandwidth", 30).keys(NETPERF_FAN_OUT)
      .numbers("message", 1440, "port", 5001, "streams_per_queue", 2).tools("netperf").portPerStream()
      .metrics(Metric.sarOnSut("tx_bps", Units.BITS_PER_S)).perSecond("tx_bps").procedure("bandwidth").build();
  /**
   * iperf -c -P queues (seed 002): sar rxkB/s on the SUT; iperf's own [SUM] totals (sender_bps), added up over the
   * client hosts, are the cross-check.
   */
  public static final TestType IPERF_BANDWIDTH = type("iperf_bandwidth", 30)
      .keys("streams", "streams_per_queue", "rate", "port", "clients", "sar")
      .numbers("port", 5001, "streams_per_queue", 1).tools("iperf")
      .metrics(RX_BPS, Metric.summed("sender_bps", Units.BITS_PER_S, Sources.IPERF, "sender_bps", "interim_sender_bps"))
      .perSecond("rx_bps").build();
  /**
   * iperf3 TCP: {@code iperf3 -s} per client on the SUT, {@code iperf3 -c SUT -P share -t D -i 1 -f k} on each client;
   * sar rxkB/s on the SUT, with iperf3's own receiver [SUM] (what the servers got, added up over the clients) as the
   * cross-check. No interim metric: a client stopped early prints 0 for the server's figures, so it runs its duration.
   */
  public static final TestType IPERF3_BANDWIDTH = type("iperf3_bandwidth", 30)
      .keys("streams", "streams_per_queue", "rate", "port", "clients", "sar")
      .numbers("port", 5201, "streams_per_queue", 1).tools("iperf3")
      .metrics(RX_BPS, Metric.summed("receiver_bps", Units.BITS_PER_S, Sources.IPERF3, "receiver_bps", null))
      .perSecond("rx_bps").build();
  /** UDP into the SUT, iperf3 -u -b 0 -l 64 (seed 000) or netperf UDP_STREAM -m 1 (seed 001); sar rxpck/s. */
  public static final TestType RX_PPS = type("rx_pps", 30).keys(PPS_KEYS)
      .numbers("message", 64, "message.netperf", 1, "port", 5001, "port.netperf", 16001, "streams_per_queue", 2)
      .tools("iperf3", "netperf").portPerStream().metrics(RX_PPS_SAR).perSecond("rx_pps").procedure("pps").build();
  /** the SUT sends UDP; sar txpck/s on the SUT. */
  public static final TestType TX_PPS = type("tx_pps", 30).keys(PPS_KEYS)
      .numbers("message", 64, "message.netperf", 1, "port", 5001, "port.netperf", 16001, "streams_per_queue", 2)
      .tools("iperf3", "netperf").portPerStream().metrics(Metric.sarOnSut("tx_pps", Units.PACKETS_PER_S))
      .perSecond("tx_pps").procedure("pps").build();
  /** several senders × sockperf tp --pps max -m 14 (seeds 001, 004 above 6 Mpps), optional IRQ affinity. */
  public static final TestType HIGH_PPS = type("high_pps", 30)
      .keys("senders", "streams", "message", "port", "irq_affinity", "sar")
      .numbers("message", 14, "port", 6666, "streams", 64).tools("sockperf").portPerStream()
      .metrics(RX_PPS_SAR).perSecond("rx_pps").build();
  /** netperf TCP_CRR -r 64 on N netserver ports, Trans. Rate summed (seed 000). */
  public static final TestType NEW_CONNECTIONS = type("new_connections", 20).keys(NETPERF_FAN_OUT)
      .numbers("message", 64, "port", 9001, "streams", 256, "streams_per_queue", 2).tools("netperf").portPerStream()
      .metrics(CRR).build();
  /** connection-holding client/server on ports 2000..64000 step 2000 (100 each), max of ss -s estab (seed 000). */
  public static final TestType CONCURRENT_CONNECTIONS = type("concurrent_connections", 60)
      .keys("target", "tool", "clients", "port", "port_step", "listeners", "c1000k_dir", "ports_per_listener")
      .numbers("port", 2000).tools("netpulse", "c1000k")
      .metrics(new Metric("tcp_estab", Units.CONNECTIONS, Direction.HIGHER_IS_BETTER, How.MAX_OVER_WINDOW,
          Sources.SS_SUMMARY, "tcp_estab", false, null, null))
      .perSecond("tcp_estab").build();
  /** ≥ 300 × netperf TCP_RR -r 1,1 from the clients, Trans. Rate summed (seed 002), sar's rx_pps alongside. */
  public static final TestType TCP_RR = type("tcp_rr", 20)
      .keys("streams", "clients", "request", "response", "port", "no_delay", "sar")
      .numbers("port", 12865, "streams", 300).tools("netperf")
      .metrics(Metric.summed("trans_per_s", Units.TRANSACTIONS_PER_S, Sources.NETPERF, "trans_per_s",
          "interim_trans_per_s"), RX_PPS_SAR).build();
  /**
   * N clients → 1 server netperf UDP_STREAM -m 1 (pps) or -m 1400 (bps): msgs ok ÷ elapsed summed (seed 003), or,
   * with sar on the SUT, sar's rx_pps there with the sums beside it as a cross-check (seed 002). netperf's UDP_STREAM
   * interim lines give the sender's rate only, so none stands in for the sums.
   */
  public static final TestType UDP_STREAM = type("udp_stream", 20)
      .keys("clients", "server", "message", "port", "reverse", "streams", "server_ports", "no_delay", "sar")
      .numbers("message", 1, "port", 11256).tools("netperf")
      .metrics(RX_PPS_SAR.onlyWhenSutSar(),
          Metric.summed("send_pps", Units.PACKETS_PER_S, Sources.NETPERF, "send_pps", null),
          Metric.summed("recv_pps", Units.PACKETS_PER_S, Sources.NETPERF, "recv_pps", null),
          Metric.summed("send_bps", Units.BITS_PER_S, Sources.NETPERF, "send_bps", null),
          Metric.summed("recv_bps", Units.BITS_PER_S, Sources.NETPERF, "recv_bps", null))
      .perSecond("rx_pps").build();

  /** Every type, in documentation order. */
  public static final List<TestType> ALL = List.of(LATENCY, SOCKPERF_LATENCY, RX_BANDWIDTH, TX_BANDWIDTH,
      IPERF_BANDWIDTH, IPERF3_BANDWIDTH, RX_PPS, TX_PPS, HIGH_PPS, NEW_CONNECTIONS, CONCURRENT_CONNECTIONS, TCP_RR, UDP_STREAM);

  /** {@link #ALL} by yaml name: the processor asks for a run's type with every sample. */
  private static final Map<String, TestType> BY_YAML_NAME =
      ALL.stream().collect(java.util.stream.Collectors.toUnmodifiableMap(TestType::yamlName, t -> t));

  /**
   * Metrics of runs whose lifecycle carries no type, by the older per-tool test names (tcp_lat, ping, tcp_crr, …).
   */
  static final Map<String, List<Metric>> BY_TOOL_TEST = Map.of(
      "tcp_lat", List.of(TCP_LAT), "udp_lat", List.of(UDP_LAT), "ping", List.of(PING_AVG),
      "sockperf_lat", List.of(SOCKPERF_AVG, SOCKPERF_P99), "tcp_crr", List.of(CRR));

  public TestType {
    ownKeys = List.copyOf(ownKeys);
    numbers = Map.copyOf(numbers);
    tools = List.copyOf(tools);
    metrics = List.copyOf(metrics);
  }

  /** Accepted keys, the common ones first, in documentation order. */
  public List<String> keys() {
    Set<String> all = new LinkedHashSet<>(COMMON_KEYS);
    all.addAll(ownKeys);
    return List.copyOf(all);
  }

  public boolean accepts(String key) {
    return COMMON_KEYS.contains(key) || ownKeys.contains(key);
  }

  /** The default of a numeric key when {@code tool} runs, or null if it has none. */
  public Integer number(String key, String tool) {
    Integer forTool = tool == null ? null : numbers.get(key + "." + tool);
    return forTool != null ? forTool : numbers.get(key);
  }

  /** Whether its main value is sar's on the SUT, so that the SUT must stay among the sar hosts. */
  public boolean readsSarOnSut() {
    return metrics.stream().anyMatch(m -> m.how() == How.MEAN_ON_SUT && !m.whenSutSar());
  }

  /** The type named {@code name} in a plan ("rx_bandwidth", "rx-bandwidth", "RX_BANDWIDTH" alike). */
  public static Optional<TestType> named(String name) {
    if (name == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(BY_YAML_NAME.get(normalise(name)));
  }

  /** The yaml names of every type. */
  public static List<String> yamlNames() {
    return ALL.stream().map(TestType::yamlName).toList();
  }

  static String normalise(String name) {
    return name.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  @Override
  public String toString() {
    return yamlName;
  }

  private static Builder type(String name, int defaultSeconds) {
    return new Builder(name, Duration.ofSeconds(defaultSeconds));
  }

  /** Entries above read as a sentence each. */
  private static final class Builder {
    private final String name;
    private final Duration duration;
    private final List<String> keys = new ArrayList<>();
    private final Map<String, Integer> numbers = new LinkedHashMap<>();
    private List<String> tools = List.of();
    private boolean portPerStream;
    private List<Metric> metrics = List.of();
    private String perSecond;
    private String procedure;

    Builder(String name, Duration duration) {
      this.name = name;
      this.duration = duration;
      this.procedure = name;
    }

    Builder keys(String... k) {
      keys.addAll(Arrays.asList(k));
      return this;
    }

    Builder keys(List<String> k) {
      keys.addAll(k);
      return this;
    }

    /** Pairs of key and value. */
    Builder numbers(Object... pairs) {
      for (int i = 0; i < pairs.length; i += 2) {
        numbers.put((String) pairs[i], (Integer) pairs[i + 1]);
      }
      return this;
    }

    Builder tools(String... t) {
      tools = List.of(t);
      return this;
    }

    Builder portPerStream() {
      portPerStream = true;
      return this;
    }

    Builder metrics(Metric... m) {
      metrics = List.of(m);
      return this;
    }

    Builder perSecond(String metric) {
      perSecond = metric;
      return this;
    }

    Builder procedure(String p) {
      procedure = p;
      return this;
    }

    TestType build() {
      return new TestType(name, keys, duration, numbers, tools, portPerStream, metrics, perSecond, procedure);
    }
  }
}
