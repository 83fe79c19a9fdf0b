package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;

/** The procedure for each test type. */
public final class Procedures {

  private Procedures() {}

  public static Procedure forTest(TestSpec test) {
    return switch (test.type()) {
      case LATENCY -> new LatencyProcedure();
      case SOCKPERF_LATENCY -> new SockperfLatencyProcedure();
      case RX_BANDWIDTH, TX_BANDWIDTH -> new BandwidthProcedure();
      case IPERF_BANDWIDTH -> new IperfBandwidthProcedure();
      case RX_PPS, TX_PPS -> new PpsProcedure();
      case HIGH_PPS -> new HighPpsProcedure();
      case NEW_CONNECTIONS -> new NewConnectionsProcedure();
      case CONCURRENT_CONNECTIONS -> new ConcurrentConnectionsProcedure();
      case TCP_RR -> new TcpRrProcedure();
      case UDP_STREAM -> new UdpStreamProcedure();
    };
  }

  /** The commands and result rules of {@code test} for a SUT with {@code sut}'s interface and queues. */
  public static TestProcedure build(Plan plan, TestSpec test, SutFacts sut) {
    return forTest(test).build(new ProcedureContext(plan, test, sut));
  }
}
