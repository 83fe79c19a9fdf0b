package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.common.catalog.TestType;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 RX/TX bandwidth: one {@code netserver -p P} per stream on the receiver and
 * {@code netperf -H receiver -t TCP_STREAM -l D -p P -- -m 1440} per stream on the sender; seeds 001/004 send
 * {@code -- -D} with netperf's own send size ({@code message: tool_default, no_delay: true}). In RX the SUT
 * receives from the clients; in TX the SUT sends and the netservers run on the clients. Streams are dealt
 * round-robin over the clients. Result: sar rx/txkB/s on the SUT, as bit/s (kB = 1024 bytes), mean over the
 * measuring phase.
 */
final class BandwidthProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    boolean rx = t.type() == TestType.RX_BANDWIDTH;
    int streams = c.streams();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    for (StreamEnds s : c.streamEnds(rx)) {
      servers.add(HostCommand.server(s.receiver(), "netserver", s.instance(), s.port(),
          ToolCommands.netserver(s.port())));
      clients.add(HostCommand.client(s.sender(), "netperf", s.instance(), ToolCommands.netperf(
          c.address(s.receiver()), "TCP_STREAM", c.sampledSeconds(), s.port(), c.netperfOptions(c.sendSize()))));
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), servers, clients, c.results(null), null);
  }
}
