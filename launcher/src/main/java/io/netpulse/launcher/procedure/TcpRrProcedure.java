package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 002 TCP_RR: {@code netserver} on the SUT and at least 300 ×
 * {@code netperf -H SUT -l D -t TCP_RR -- -r 1,1}, dealt round-robin over the clients; Trans. Rate
 * summed, with sar's packet rate on the SUT alongside.
 */
final class TcpRrProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    HostCommand server = HostCommand.server(t.sut(), "netserver", 0, t.port(), ToolCommands.netserver(t.port()));
    List<HostCommand> clients = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      clients.add(HostCommand.client(c.other(i), "netperf", i,
          ToolCommands.netperf(c.address(t.sut()), "TCP_RR", c.sampledSeconds(), t.port(),
              c.netperfOptions("-r", t.requestBytes() + "," + t.responseBytes()))));
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), List.of(server), clients,
        c.results(null),
        null);
  }
}
