package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.Durations;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.plan.TrafficOptions;
import io.netpulse.tools.Sampler;
import java.util.ArrayList;
import java.util.List;

/** A test with its plan and the SUT's facts: what a {@link Procedure} needs. */
public record ProcedureContext(Plan plan, TestSpec test, SutFacts sut) {

  public HostSpec host(String name) {
    return plan.host(name);
  }

  /** Where traffic to the host goes: its test_address (its SSH address unless the plan says otherwise). */
  public String address(String hostName) {
    return plan.host(hostName).testAddress();
  }

  /** Stream count with {@code auto} resolved against the SUT's queues. */
  public int streams() {
    return test.streams() == null ? 1 : test.streams().resolve(sut.queues());
  }

  /** Seconds for tools whose result is windowed from per-second samples: warm-up plus measuring time. */
  public long sampledSeconds() {
    return Durations.ceilSeconds(test.warmup().plus(test.duration()));
  }

  /** Seconds for tools that print one figure for their whole run (qperf, sockperf pp): the measuring time. */
  public long printedSeconds() {
    return Durations.ceilSeconds(test.duration());
  }

  /** Last port of {@code count} consecutive ports from the test's port, checked against 65535. */
  public int port(int offset) {
    long p = (long) test.port() + offset;
    if (p > 65535) {
      throw new IllegalArgumentException(test.label() + ": port " + test.port() + " + " + offset
          + " is past 65535; lower port or streams");
    }
    return (int) p;
  }

  /** The test's added options; none for a test built without them. */
  public TrafficOptions options() {
    return test.options() == null ? TrafficOptions.NONE : test.options();
  }

  /**
   * The hosts at the other end from the SUT, over which instance {@code i} is dealt to {@code i mod n}: the test's
   * {@code clients} ({@code [peer]} unless the plan names them).
   */
  public List<String> others() {
    return test.clients() == null || test.clients().isEmpty() ? List.of(test.peer()) : test.clients();
  }

  /** The host instance {@code i} runs on or sends to, dealt round-robin over {@link #others()}. */
  public String other(int i) {
    List<String> o = others();
    return o.get(i % o.size());
  }

  /**
   * The two ends of each of the {@link #streams()} instances, instance {@code i} on {@link #port(int) port(i)}: the
   * SUT receives when {@code intoSut} (RX) and sends otherwise (TX), the other end dealt by {@link #other(int)}.
   */
  List<StreamEnds> streamEnds(boolean intoSut) {
    String sut = test.sut();
    int streams = streams();
    List<StreamEnds> out = new ArrayList<>(streams);
    for (int i = 0; i < streams; i++) {
      int port = port(i);
      out.add(intoSut ? new StreamEnds(i, port, sut, other(i)) : new StreamEnds(i, port, other(i), sut));
    }
    return out;
  }

  /**
   * {@code sar -n DEV 1} on every host the plan's {@code sar} names, the SUT first: a sender's rows are on record under
   * its own name and never stand in for the SUT's (the processor keeps to the run's SUT).
   */
  public List<HostCommand> sarSamplers() {
    List<HostCommand> out = new ArrayList<>();
    for (String host : options().sarHosts()) {
      out.add(ToolCommands.sampler(host, Sampler.SAR_DEV));
    }
    return out;
  }

  /**
   * The test type's result metrics (the catalog's) on this test's hosts: sar's figures on the SUT's interface, the
   * highest sample on the SUT, tool figures from {@code figureHost} (null: every instance, wherever it runs).
   */
  public List<ResultRule> results(String figureHost) {
    return results(figureHost, true);
  }

  /** The same, without the metrics made only when the SUT runs sar for them unless {@code sutSar}. */
  public List<ResultRule> results(String figureHost, boolean sutSar) {
    return test.type().metrics().stream().filter(m -> sutSar || !m.whenSutSar()).map(m -> switch (m.how()) {
      case MEAN_ON_SUT -> ResultRule.of(m, test.sut(), sut.iface());
      case MAX_OVER_WINDOW -> ResultRule.of(m, test.sut(), null);
      case SUM_OVER_INSTANCES, AS_PRINTED -> ResultRule.of(m, figureHost, null);
    }).toList();
  }

  /** Whether the SUT runs sar in this test. */
  public boolean sarOnSut() {
    return options().sarHosts().contains(test.sut());
  }

  /** netperf's test-specific options: {@code sizes} (e.g. {@code -m 1}, {@code -r 1,1}) then {@code -D} when asked. */
  public Object[] netperfOptions(Object... sizes) {
    List<Object> out = new ArrayList<>(List.of(sizes));
    if (options().noDelay()) {
      out.add("-D"); // after the sizes, as seed 001 writes "-- -m 1 -D"
    }
    return out.toArray();
  }

  /** {@code -m N}, or nothing where netperf chooses its send size ({@code message: tool_default}). */
  public Object[] sendSize() {
    return test.messageBytes() == null ? new Object[0] : new Object[] {"-m", test.messageBytes()};
  }
}
