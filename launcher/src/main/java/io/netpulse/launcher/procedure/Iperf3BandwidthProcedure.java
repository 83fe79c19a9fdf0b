package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.tools.iperf3.Iperf3Commands;
import java.util.ArrayList;
import java.util.List;

/**
 * iperf3 TCP bandwidth into the SUT: the streams are dealt over the clients as iperf_bandwidth deals them (the first
 * ones one more), client {@code k} runs {@code iperf3 -c SUT -p PORT+k -P share -t D -i 1 -f k} against an
 * {@code iperf3 -s -p PORT+k} of its own on the SUT (one iperf3 server serves one test at a time). Results: the
 * catalog's, sar's rx_bps on the SUT and the clients' receiver totals summed as the cross-check.
 */
final class Iperf3BandwidthProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    List<String> hosts = c.others();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    for (int k = 0; k < hosts.size(); k++) {
      int share = streams / hosts.size() + (k < streams % hosts.size() ? 1 : 0);
      if (share == 0) {
        continue;
      }
      int port = c.port(clients.size());
      servers.add(HostCommand.server(t.sut(), "iperf3", clients.size(), port,
          ToolCommands.of(Iperf3Commands.server(port))));
      clients.add(HostCommand.client(hosts.get(k), "iperf3", clients.size(), ToolCommands.of(
          Iperf3Commands.tcpClient(c.address(t.sut()), port, share, t.rate(), c.sampledSeconds()))));
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), servers, clients, c.results(null), null);
  }
}
