package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 003 link test, N clients → 1 server: the server runs {@code netserver -p P+i} for client i,
 * client i runs {@code netperf -H server -p P+i -t UDP_STREAM -l D -- -m 1} (pps) or {@code -m 1400}
 * (bps). {@code reverse}: each client runs {@code netserver -p P} and the server sends to each of them.
 * Result: messages okay ÷ elapsed of each instance, summed.
 */
final class UdpStreamProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    int i = 0;
    for (String client : t.clients()) {
      if (t.reverse()) {
        servers.add(HostCommand.server(client, "netserver", i, ToolCommands.netserver(t.port())));
        clients.add(HostCommand.client(t.server(), "netperf", i, ToolCommands.netperf(c.address(client),
            "UDP_STREAM", c.sampledSeconds(), t.port(), "-m", t.messageBytes())));
      } else {
        int port = c.port(i);
        servers.add(HostCommand.server(t.server(), "netserver", i, ToolCommands.netserver(port)));
        clients.add(HostCommand.client(client, "netperf", i, ToolCommands.netperf(c.address(t.server()),
            "UDP_STREAM", c.sampledSeconds(), port, "-m", t.messageBytes())));
      }
      i++;
    }
    return new TestProcedure(t, t.clients().size(), c.sampledSeconds(), List.of(), servers, clients,
        // the seed's figure is the send line's; the receive line shows what crossed the link
        List.of(summed("send_pps", Units.PACKETS_PER_S), summed("recv_pps", Units.PACKETS_PER_S),
            summed("send_bps", Units.BITS_PER_S), summed("recv_bps", Units.BITS_PER_S)),
        null);
  }

  private static ResultRule summed(String metric, String unit) {
    return new ResultRule(metric, unit, "netperf", metric, null, null, Combine.SUM_OVER_INSTANCES);
  }
}
