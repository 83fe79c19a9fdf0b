package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seeds 001/004 above 6 Mpps: each sender runs {@code streams} ×
 * {@code sockperf tp -i SUT --pps max -m 14 -t D --port 6666+i}; optional IRQ affinity on the SUT.
 * No receiver process, as in the seeds: the SUT's kernel takes the datagrams. Result: sar rxpck/s on the SUT; with
 * {@code sar: all} the senders run sar too, as the seeds' 6-20 Mpps tiers do.
 */
final class HighPpsProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    String sut = c.address(t.sut());
    List<HostCommand> clients = new ArrayList<>();
    int instance = 0;
    for (String sender : t.senders()) {
      for (int i = 0; i < streams; i++) {
        clients.add(HostCommand.client(sender, "sockperf", instance++, RemoteCommand.of("sockperf", "tp",
            "-i", sut, "--pps", "max", "-m", t.messageBytes(), "-t", c.sampledSeconds(), "--port", c.port(i))));
      }
    }
    return new TestProcedure(t, streams, c.sampledSeconds(),
        c.sarSamplers(), List.of(), clients,
        c.results(null),
        t.irqAffinity());
  }
}
