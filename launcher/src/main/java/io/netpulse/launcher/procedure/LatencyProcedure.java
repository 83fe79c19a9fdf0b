package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.Sources;
import io.netpulse.launcher.plan.StopMode;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;

/**
 * Seed 000: {@code qperf} server on the SUT, {@code qperf SUT -t D tcp_lat udp_lat -m 64 -vvu} on the
 * peer, then {@code ping SUT -c N}; results are the printed {@code latency =} and ping's rtt avg.
 *
 * <p>With {@code qperf_loop: true}, {@code stop: steady} and the precision criterion, qperf's two tests run instead
 * as two stages of 1-s tests each ({@code stdbuf -oL qperf SUT -t 1 ... -oo timeout:5:N:1 tcp_lat}, then the same for udp_lat: qperf's
 * loop steps its message timeout, which the traffic never reaches, so each of the D tests is the seed's test for a
 * second), whose per-second lines the processor judges: each stage stops once its mean is precise, and its value is
 * made as qperf makes a run's, time over messages. {@code stdbuf -oL}: through a pipe qperf's stdout is
 * block-buffered, and the seconds would arrive all at once at the loop's end. ping prints its replies' mean only at
 * its end and runs its count either way. Not the default: alternated with the seed's one run between the namespace
 * hosts here, the loop read lower in 14 of 15 pairs (median 2.9 %; docs/steady-state.md), a difference from the seed's
 * procedure a user must choose; and at the default ±1 % a stage seldom stops early.
 */
final class LatencyProcedure implements Procedure {

  /** tcp_lat and udp_lat, one after the other. */
  static final int QPERF_TESTS = 2;
  /** qperf's default timeout for exchanging messages, where the loop's variable starts. */
  private static final int QPERF_TIMEOUT_S = 5;

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    String sut = c.address(t.sut());
    int port = t.port();
    HostCommand server = HostCommand.server(t.sut(), "qperf", 0, port, RemoteCommand.of("qperf", "-lp", port));
    long seconds = c.printedSeconds();
    List<HostCommand> qperf;
    int pingStage;
    if (t.options().qperfLoop() && c.plan().stop() == StopMode.STEADY && t.steady().precision()) {
      qperf = List.of(loop(c, sut, "tcp_lat", Sources.QPERF_TCP_LAT_LOOP).inStage(1),
          loop(c, sut, "udp_lat", Sources.QPERF_UDP_LAT_LOOP).inStage(2));
      pingStage = 3;
    } else {
      // -t is each test's time: tcp_lat, then udp_lat (the seed's 60 s take two minutes)
      qperf = List.of(HostCommand.client(t.peer(), "qperf", 0, RemoteCommand.of("qperf", sut, "-lp", port,
          "-t", seconds, "tcp_lat", "udp_lat", "-m", t.messageBytes(), "-vvu")).runsFor(QPERF_TESTS * seconds));
      pingStage = 2;
    }
    // after qperf, as in the seed, so that the two do not disturb each other's round trips; a reply a second
    HostCommand ping = HostCommand.client(t.peer(), "ping", 0,
        RemoteCommand.of("ping", "-c", t.pingCount(), sut).withEnv("LC_ALL", "C")).inStage(pingStage)
        .runsFor(t.pingCount());
    List<HostCommand> clients = new java.util.ArrayList<>(qperf);
    clients.add(ping);
    return new TestProcedure(t, 1, seconds, List.of(), List.of(server), clients, c.results(t.peer()), null);
  }

  /** One of qperf's latency tests as {@code seconds} 1-s tests, one figure a second on stdout. */
  private static HostCommand loop(ProcedureContext c, String sut, String test, String source) {
    long seconds = c.printedSeconds();
    return HostCommand.client(c.test().peer(), source, 0, RemoteCommand.of("stdbuf", "-oL", "qperf", sut, "-lp",
        c.test().port(), "-t", 1, "-m", c.test().messageBytes(), "-vvu", "-oo",
        "timeout:" + QPERF_TIMEOUT_S + ":" + (QPERF_TIMEOUT_S + seconds - 1) + ":1", test)).runsFor(seconds);
  }
}
