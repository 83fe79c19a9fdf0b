package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.StopMode;
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
    HostCommand server = HostCommand.server(t.sut(), "iperf", 0, RemoteCommand.of("iperf", "-s", "-p", t.port()));
    List<String> hosts = c.others();
    List<HostCommand> clients = new ArrayList<>();
    for (int k = 0; k < hosts.size(); k++) {
      // the streams dealt over the clients as netperf instances are: the first ones get one more
      int share = streams / hosts.size() + (k < streams % hosts.size() ? 1 : 0);
      if (share == 0) {
        continue;
      }
      List<Object> args = new ArrayList<>(List.of("-c", c.address(t.sut()),
          "-p", t.port(), "-b", t.rate(), "-t", c.sampledSeconds(), "-P", share));
      if (c.plan().stop() == StopMode.STEADY) {
        args.addAll(List.of("-i", 1, "--sum-only", "-f", "k"));
      }
      clients.add(HostCommand.client(hosts.get(k), "iperf", clients.size(), RemoteCommand.of("iperf", args.toArray())));
    }
    return new TestProcedure(t, streams, c.sampledSeconds(), c.sarSamplers(), List.of(server), clients,
        List.of(new ResultRule("rx_bps", Units.BITS_PER_S, "sar-dev", "rx_bps", t.sut(), c.sut().iface(), Combine.MEAN_OF_SAMPLES),
            new ResultRule("sender_bps", Units.BITS_PER_S, "iperf", "sender_bps", null, null,
                Combine.SUM_OVER_INSTANCES)),
        null);
  }
}
