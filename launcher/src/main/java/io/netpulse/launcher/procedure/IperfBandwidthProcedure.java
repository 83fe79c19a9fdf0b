package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.StopMode;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 002 bandwidth: {@code iperf -s} on the SUT, {@code iperf -c SUT -b 2048M -t D -P queues} on the
 * peer. Result: sar rxkB/s on the SUT as bit/s; iperf's own SUM line (sender_bps) as a cross-check. With
 * {@code stop: steady} the client also reports each second ({@code -i 1}), one row for all its streams
 * ({@code --sum-only}, whatever {@code -P}) in whole kbit/s ({@code -f k}, where the default prints 3 digits):
 * the launcher streams those rows, and the processor makes sender_bps of them when the client is stopped early.
 */
final class IperfBandwidthProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    HostCommand server = HostCommand.server(t.sut(), "iperf", 0, RemoteCommand.of("iperf", "-s", "-p", t.port()));
    List<Object> args = new ArrayList<>(List.of("-c", c.address(t.sut()),
        "-p", t.port(), "-b", t.rate(), "-t", c.sampledSeconds(), "-P", streams));
    if (c.plan().stop() == StopMode.STEADY) {
      args.addAll(List.of("-i", 1, "--sum-only", "-f", "k"));
    }
    HostCommand client = HostCommand.client(t.peer(), "iperf", 0, RemoteCommand.of("iperf", args.toArray()));
    return new TestProcedure(t, streams, c.sampledSeconds(),
        List.of(HostCommand.sampler(t.sut(), "sar-dev", ToolCommands.sarDev())), List.of(server), List.of(client),
        List.of(new ResultRule("rx_bps", Units.BITS_PER_S, "sar-dev", "rx_bps", t.sut(), c.sut().iface(), Combine.MEAN_OF_SAMPLES),
            new ResultRule("sender_bps", Units.BITS_PER_S, "iperf", "sender_bps", t.peer(), null, Combine.PRINTED)),
        null);
  }
}
