package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.StopMode;
import io.netpulse.tools.iperf.IperfCommands;
import io.netpulse.launcher.plan.TestSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 002 bandwidth: {@code iperf -s} on the SUT, {@code iperf -c SUT -b 2048M -t D -P queues} on the
 * peer; with several clients each runs {@code -P} its share of the streams. Result: sar rxkB/s on the SUT as bit/s;
 * iperf's own SUM lines (sender_bps, added up over the clients) as a cross-check. With {@code stop: steady} each
 * client also reports each second ({@code -i 1}), one row for all its streams ({@code --sum-only}, whatever
 * {@code -P}) in whole kbit/s ({@code -f k}, where the default prints 3 digits): the launcher streams those rows,
 * and the processor makes sender_bps of them when the clients are stopped early.
 */
final class IperfBandwidthProcedure implements Procedure {

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    int streams = c.streams();
    HostCommand server = HostCommand.server(t.sut(), "iperf", 0, t.port(),
        ToolCommands.of(IperfCommands.server(t.port())));
    List<String> hosts = c.others();
    List<HostCommand> clients = new ArrayList<>();
    for (int k = 0; k < hosts.size(); k++) {
      // the streams dealt over the clients as netperf instances are: the first ones get one more
      int share = streams / hosts.size() + (k < streams % hosts.size() ? 1 : 0);
      if (share == 0) {
        continue;
      }
      List<String> argv = IperfCommands.client(c.address(t.sut()), t.port(), t.rate(), c.sampledSeconds(), share,
          c.plan().stop() == StopMode.STEADY);
      clients.add(HostCommand.client(hosts.get(k), "iperf", clients.size(), ToolCommands.of(argv)));
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), List.of(server), clients,
        c.results(null),
        null);
  }
}
