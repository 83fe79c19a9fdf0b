package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * N clients → 1 server, netperf UDP_STREAM, one instance per client unless {@code streams} says more (dealt
 * round-robin), in two shapes:
 *
 * <ul>
 *   <li>seed 002, the SUT runs sar ({@code sar: sut} or {@code all}; the seed's {@code sar -n DEV 2}, sampled here
 *       each second): {@code netserver} on the SUT, {@code netperf -H SUT -l D -t UDP_STREAM -- -m 1} from each sender ({@code server_ports: shared}:
 *       one netserver on netserver's port). The value is sar's rx_pps on the SUT, mean over the measuring phase: what
 *       the SUT received, which the senders' figures are not bounded by; their sums stay beside it as a cross-check.
 *   <li>seed 003, no sar on the SUT: {@code netserver -p P+i} on the server for instance i, whose client runs
 *       {@code netperf -H server -p P+i -t UDP_STREAM -l D -- -m 1} (pps) or {@code -m 1400} (bps). The value is
 *       messages okay ÷ elapsed of each instance, summed, as that seed defines it.
 * </ul>
 *
 * {@code reverse}: each client runs {@code netserver -p P} and the server sends to each of them (seed 003's IDC as
 * client); its value is the sums whatever runs sar, since the SUT sends.
 */
final class UdpStreamProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    String server = t.server() == null ? t.sut() : t.server();
    int instances = t.streams() == null ? c.others().size() : c.streams();
    boolean shared = c.options().sharedServerPort();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    Set<String> serving = new LinkedHashSet<>();
    for (int i = 0; i < instances; i++) {
      String client = c.other(i);
      if (t.reverse()) {
        if (serving.add(client)) {
          servers.add(HostCommand.server(client, "netserver", servers.size(), t.port(),
              ToolCommands.netserver(t.port())));
        }
        clients.add(HostCommand.client(server, "netperf", i, ToolCommands.netperf(c.address(client),
            "UDP_STREAM", c.sampledSeconds(), t.port(), c.netperfOptions("-m", t.messageBytes()))));
      } else {
        int port = shared ? t.port() : c.port(i);
        if (!shared || i == 0) {
          servers.add(HostCommand.server(server, "netserver", servers.size(), port, ToolCommands.netserver(port)));
        }
        clients.add(HostCommand.client(client, "netperf", i, ToolCommands.netperf(c.address(server),
            "UDP_STREAM", c.sampledSeconds(), port, c.netperfOptions("-m", t.messageBytes()))));
      }
    }
    // sar's rx_pps only where the SUT receives and runs sar (seed 002); seed 003's figure is the send line's, the
    // receive line shows what crossed the link
    boolean sutSar = !t.reverse() && server.equals(t.sut()) && c.sarOnSut();
    return new TestProcedure(t, instances, c.sampledSeconds(), c.sarSamplers(), servers, clients,
        c.results(null, sutSar), null);
  }
}
