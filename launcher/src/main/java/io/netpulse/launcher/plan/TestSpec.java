package io.netpulse.launcher.plan;

import io.netpulse.common.catalog.TestType;

import java.time.Duration;
import java.util.List;

/**
 * One test of a plan with every default applied. Fields a test type does not use are null
 * (see {@link TestType} for which keys each type accepts). Host fields hold host names of the plan.
 *
 * @param index 1-based position in the plan's {@code tests}
 * @param streams parallel instances (per sender for high_pps); null for udp_stream without {@code streams}: one
 *     instance per client
 * @param messageBytes netperf -m / iperf3 -l / qperf -m / sockperf -m, or netperf -r for TCP_CRR; null where netperf
 *     is to choose its own send size ({@code message: tool_default})
 * @param port first port; instance i uses {@code port + i} (concurrent_connections: {@code + i × portStep})
 * @param target concurrent connections to open at most in total (concurrent_connections); null: no cap, the
 *     clients climb until the SUT or they themselves stop it
 * @param rate iperf -b value, e.g. {@code 2048M}; iperf3 -b for rx_pps/tx_pps, e.g. {@code 0M}
 * @param portsPerListener concurrent_connections: consecutive ports each listener serves from its port (c1000k's
 *     server: 100)
 * @param options sar hosts and tool options that say what the seeds' command lines say
 * @param steady when {@code stop: steady} ends its repetitions: the plan's {@code steady:}, with the keys the test's own
 *     {@code steady:} gives in their place
 */
public record TestSpec(
    int index,
    TestType type,
    String name,
    Duration duration,
    Duration warmup,
    int repetitions,
    String sut,
    String peer,
    Streams streams,
    Tool tool,
    Integer messageBytes,
    Integer requestBytes,
    Integer responseBytes,
    Integer port,
    Integer portStep,
    Integer listeners,
    Integer pingCount,
    Long target,
    String rate,
    List<String> clients,
    List<String> senders,
    String server,
    boolean reverse,
    IrqAffinity irqAffinity,
    String c1000kDir,
    Integer portsPerListener,
    TrafficOptions options,
    SteadySpec steady) {

  /** "test 3 (rx_bandwidth)" or "test 3 (name)", for messages. */
  public String label() {
    return "test " + index + " (" + name + ")";
  }
}
