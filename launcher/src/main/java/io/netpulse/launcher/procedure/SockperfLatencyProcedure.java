package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.List;

/**
 * Seeds 001/004: {@code sockperf sr --tcp} on the SUT (in the foreground, not {@code --daemonize}, so
 * its PID is known) and {@code sockperf pp -i SUT --tcp -t D -m 14} on the peer; avg and p99 latency.
 */
final class SockperfLatencyProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    HostCommand server = HostCommand.server(t.sut(), "sockperf", 0, t.port(),
        RemoteCommand.of("sockperf", "sr", "--tcp", "--port", t.port()));
    HostCommand client = HostCommand.client(t.peer(), "sockperf", 0, RemoteCommand.of("sockperf", "pp",
        "-i", c.address(t.sut()), "--tcp", "-t", c.printedSeconds(), "-m", t.messageBytes(), "--port", t.port()));
    return new TestProcedure(t, 1, c.printedSeconds(), List.of(), List.of(server), List.of(client), c.results(t.peer()), null);
  }
}
