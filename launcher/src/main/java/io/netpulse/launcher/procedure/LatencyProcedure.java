package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;

/**
 * Seed 000: {@code qperf} server on the SUT, {@code qperf SUT -t D tcp_lat udp_lat -m 64 -vvu} on the
 * peer, then {@code ping SUT -c N}; results are the printed {@code latency =} and ping's rtt avg.
 */
final class LatencyProcedure implements Procedure {

  /** tcp_lat and udp_lat, one after the other. */
  static final int QPERF_TESTS = 2;

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    String sut = c.address(t.sut());
    int port = t.port();
    HostCommand server = HostCommand.server(t.sut(), "qperf", 0, port, RemoteCommand.of("qperf", "-lp", port));
    // -t is each test's time: tcp_lat, then udp_lat (the seed's 60 s take two minutes)
    HostCommand qperf = HostCommand.client(t.peer(), "qperf", 0, RemoteCommand.of("qperf", sut, "-lp", port,
        "-t", c.printedSeconds(), "tcp_lat", "udp_lat", "-m", t.messageBytes(), "-vvu"))
        .runsFor(QPERF_TESTS * c.printedSeconds());
    // after qperf, as in the seed, so that the two do not disturb each other's round trips; a reply a second
    HostCommand ping = HostCommand.client(t.peer(), "ping", 0,
        RemoteCommand.of("ping", "-c", t.pingCount(), sut).withEnv("LC_ALL", "C")).inStage(2)
        .runsFor(t.pingCount());
    return new TestProcedure(t, 1, c.printedSeconds(), List.of(), List.of(server), List.of(qperf, ping), c.results(t.peer()), null);
  }
}
