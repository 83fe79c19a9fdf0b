package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.common.catalog.TestType;
import io.netpulse.launcher.plan.Tool;
import io.netpulse.tools.iperf3.Iperf3Commands;
import java.util.ArrayList;
import java.util.List;

/**
 * RX/TX PPS, one server and one sender per stream, dealt round-robin over the clients: seed 000's
 * {@code iperf3 -s -p P} and {@code iperf3 -c receiver -b 0M -u -t D -l 64 -p P} (its order), or seed 001's
 * netserver and {@code netperf -t UDP_STREAM -- -m 1 -D}. Result: sar rx/txpck/s on the SUT, mean over the
 * measuring phase.
 */
final class PpsProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    boolean rx = t.type() == TestType.RX_PPS;
    int streams = c.streams();
    String rate = t.rate() == null ? "0M" : t.rate();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    for (StreamEnds s : c.streamEnds(rx)) {
      int i = s.instance();
      int port = s.port();
      String to = c.address(s.receiver());
      if (t.tool() == Tool.NETPERF) {
        servers.add(HostCommand.server(s.receiver(), "netserver", i, port, ToolCommands.netserver(port)));
        clients.add(HostCommand.client(s.sender(), "netperf", i, ToolCommands.netperf(to, "UDP_STREAM",
            c.sampledSeconds(), port, c.netperfOptions("-m", t.messageBytes()))));
      } else {
        servers.add(HostCommand.server(s.receiver(), "iperf3", i, port,
            ToolCommands.of(Iperf3Commands.server(port))));
        // set up one at a time: iperf3 sends its UDP stream's hello once, and behind a cap another client's flood
        // drops it (the client then fails after 30 s: "unable to read from stream socket")
        clients.add(HostCommand.floodingClient(s.sender(), "iperf3", i, ToolCommands.of(
            Iperf3Commands.udpClient(to, rate, c.sampledSeconds(), t.messageBytes(), port)), Iperf3Commands.UDP_SET_UP));
      }
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), servers, clients, c.results(null), null);
  }
}
