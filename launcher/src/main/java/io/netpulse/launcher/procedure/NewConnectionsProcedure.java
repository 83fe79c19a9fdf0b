package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.TestType;

import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 new connections: {@code netserver -p P} for P in 9001.. on the SUT and
 * {@code netperf -H SUT -t TCP_CRR -l D -p P -- -r 64} per port, dealt round-robin over the clients; the
 * per-instance Trans. Rate figures are summed.
 */
final class NewConnectionsProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      int port = c.port(i);
      servers.add(HostCommand.server(t.sut(), "netserver", i, port, ToolCommands.netserver(port)));
      clients.add(HostCommand.client(c.other(i), "netperf", i, ToolCommands.netperf(c.address(t.sut()), "TCP_CRR",
          c.sampledSeconds(), port, c.netperfOptions("-r", t.messageBytes()))));
    }
    String from = c.others().size() == 1 ? c.others().get(0) : null;
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), servers, clients,
        c.results(from),
        null);
  }
}
