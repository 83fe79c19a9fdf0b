package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.plan.TestType;
import io.netpulse.launcher.plan.Tool;
import java.util.ArrayList;
import java.util.List;

/**
 * RX/TX PPS, one server and one sender per stream: seed 000's {@code iperf3 -s -p P} and
 * {@code iperf3 -c receiver -u -b 0 -l 64 -t D -p P}, or seed 001's netserver and
 * {@code netperf -t UDP_STREAM -- -m 1}. Result: sar rx/txpck/s on the SUT, mean over the measuring phase.
 */
final class PpsProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    boolean rx = t.type() == TestType.RX_PPS;
    String receiver = rx ? t.sut() : t.peer();
    String sender = rx ? t.peer() : t.sut();
    String to = c.address(receiver);
    int streams = c.streams();
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      int port = c.port(i);
      if (t.tool() == Tool.NETPERF) {
        servers.add(HostCommand.server(receiver, "netserver", i, ToolCommands.netserver(port)));
        clients.add(HostCommand.client(sender, "netperf", i,
            ToolCommands.netperf(to, "UDP_STREAM", c.sampledSeconds(), port, "-m", t.messageBytes())));
      } else {
        servers.add(HostCommand.server(receiver, "iperf3", i, RemoteCommand.of("iperf3", "-s", "-p", port)));
        clients.add(HostCommand.client(sender, "iperf3", i, RemoteCommand.of("iperf3", "-c", to, "-u", "-b", 0,
            "-l", t.messageBytes(), "-t", c.sampledSeconds(), "-p", port)));
      }
    }
    String metric = rx ? "rx_pps" : "tx_pps";
    return new TestProcedure(t, streams, c.sampledSeconds(),
        List.of(HostCommand.sampler(t.sut(), "sar-dev", ToolCommands.sarDev())), servers, clients,
        List.of(new ResultRule(metric, Units.PACKETS_PER_S, "sar-dev", metric, t.sut(), c.sut().iface(),
            Combine.MEAN_OF_SAMPLES)),
        null);
  }
}
