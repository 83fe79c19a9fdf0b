package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.How;
import static io.netpulse.launcher.procedure.ProceduresTest.only;
import static io.netpulse.launcher.procedure.ProceduresTest.rendered;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Instances spread over several client hosts, sar on the senders, netperf's test-specific options, udp_stream's shapes. */
@Tag("unit")
class TrafficProceduresTest {

  private static final String SAR = "env LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC sar -n DEV 1";

  @Test
  void rxBandwidthDealsStreamsOverTheClientsAndTxHasNetserversOnThem() throws Exception {
    TestProcedure rx = only("{ type: rx_bandwidth, streams: 3, clients: [peer, aux1], sar: all }");
    assertThat(rendered(rx.servers())).containsExactly("sut: netserver -D -p 5001", "sut: netserver -D -p 5002",
        "sut: netserver -D -p 5003");
    assertThat(rendered(rx.clients())).containsExactly(
        "peer: netperf -H 198.18.0.2 -t TCP_STREAM -l 35 -p 5001 -D 1 -- -m 1440",
        "aux1: netperf -H 198.18.0.2 -t TCP_STREAM -l 35 -p 5002 -D 1 -- -m 1440",
        "peer: netperf -H 198.18.0.2 -t TCP_STREAM -l 35 -p 5003 -D 1 -- -m 1440");
    // the senders' sar too: the load they offered is on record under their names
    assertThat(rendered(rx.samplers())).containsExactly("sut: " + SAR, "peer: " + SAR, "aux1: " + SAR);
    assertThat(rx.results()).extracting(ResultRule::host).containsExactly("sut");
    TestProcedure tx = only("{ type: tx_bandwidth, streams: 2, clients: [peer, aux1], message: tool_default, "
        + "no_delay: true }");
    assertThat(rendered(tx.servers())).containsExactly("peer: netserver -D -p 5001", "aux1: netserver -D -p 5002");
    // seeds 001/004: -- -D and no -m, netperf's own send size
    assertThat(rendered(tx.clients())).containsExactly(
        "sut: netperf -H 198.18.0.1 -t TCP_STREAM -l 35 -p 5001 -D 1 -- -D",
        "sut: netperf -H 198.18.0.3 -t TCP_STREAM -l 35 -p 5002 -D 1 -- -D");
    assertThat(rendered(tx.samplers())).containsExactly("sut: " + SAR);
  }

  @Test
  void ppsSpreadsOverClientsWithIperf3sRateOrNetperfsNoDelay() throws Exception {
    TestProcedure rx = only("{ type: rx_pps, streams: 2, clients: [peer, aux1], rate: 100M }");
    assertThat(rendered(rx.clients())).containsExactly("peer: stdbuf -oL iperf3 -c 198.18.0.2 -b 100M -u -t 35 -l 64 -p 5001",
        "aux1: stdbuf -oL iperf3 -c 198.18.0.2 -b 100M -u -t 35 -l 64 -p 5002");
    TestProcedure tx = only("{ type: tx_pps, tool: netperf, streams: 2, clients: [peer, aux1], no_delay: true }");
    assertThat(rendered(tx.servers())).containsExactly("peer: netserver -D -p 16001", "aux1: netserver -D -p 16002");
    // seed 001: -- -m 1 -D, in that order
    assertThat(rendered(tx.clients())).containsExactly(
        "sut: netperf -H 198.18.0.1 -t UDP_STREAM -l 35 -p 16001 -D 1 -- -m 1 -D",
        "sut: netperf -H 198.18.0.3 -t UDP_STREAM -l 35 -p 16002 -D 1 -- -m 1 -D");
  }

  @Test
  void newConnectionsAndIperfBandwidthTakeClientsToo() throws Exception {
    TestProcedure crr = only("{ type: new_connections, streams: 3, clients: [peer, aux1], sar: [peer, aux1] }");
    assertThat(crr.clients()).extracting(HostCommand::host).containsExactly("peer", "aux1", "peer");
    assertThat(rendered(crr.clients())).last().isEqualTo("peer: netperf -H 198.18.0.2 -t TCP_CRR -l 25 -p 9003 -D 1 -- -r 64");
    assertThat(crr.samplers()).extracting(HostCommand::host).containsExactly("peer", "aux1");
    assertThat(crr.results().get(0).host()).isNull(); // summed over instances on both hosts
    // iperf -P: the streams shared out, the first clients one more; sender_bps added up over them
    TestProcedure iperf = only("{ type: iperf_bandwidth, streams: 5, clients: [peer, aux1] }");
    assertThat(rendered(iperf.clients())).containsExactly(
        "peer: iperf -c 198.18.0.2 -p 5001 -b 2048M -t 35 -P 3 -i 1 --sum-only -f k",
        "aux1: iperf -c 198.18.0.2 -p 5001 -b 2048M -t 35 -P 2 -i 1 --sum-only -f k");
    assertThat(iperf.clients()).extracting(HostCommand::instance).containsExactly(0, 1);
    assertThat(iperf.results().get(1).how()).isEqualTo(How.SUM_OVER_INSTANCES);
    // more clients than streams: those without a share start nothing
    assertThat(only("{ type: iperf_bandwidth, streams: 1, clients: [peer, aux1] }").clients()).hasSize(1);
  }

  @Test
  void tcpRrTakesNoDelayAfterItsSizes() throws Exception {
    TestProcedure p = only("{ type: tcp_rr, streams: 2, clients: [peer, aux1], no_delay: true, sar: all }");
    assertThat(rendered(p.clients())).containsExactly(
        "peer: netperf -H 198.18.0.2 -t TCP_RR -l 25 -p 12865 -D 1 -- -r 1,1 -D",
        "aux1: netperf -H 198.18.0.2 -t TCP_RR -l 25 -p 12865 -D 1 -- -r 1,1 -D");
    assertThat(p.samplers()).extracting(HostCommand::host).containsExactly("sut", "peer", "aux1");
  }

  @Test
  void udpStreamInSeed002sShapeReadsSarOnTheSutWithOneNetserverForAll() throws Exception {
    TestProcedure p = only("{ type: udp_stream, clients: [peer, aux1], sar: all, server_ports: shared, streams: 4 }");
    assertThat(rendered(p.servers())).containsExactly("sut: netserver -D -p 12865");
    assertThat(rendered(p.clients())).containsExactly(
        "peer: netperf -H 198.18.0.2 -t UDP_STREAM -l 25 -p 12865 -D 1 -- -m 1",
        "aux1: netperf -H 198.18.0.2 -t UDP_STREAM -l 25 -p 12865 -D 1 -- -m 1",
        "peer: netperf -H 198.18.0.2 -t UDP_STREAM -l 25 -p 12865 -D 1 -- -m 1",
        "aux1: netperf -H 198.18.0.2 -t UDP_STREAM -l 25 -p 12865 -D 1 -- -m 1");
    assertThat(p.clients()).extracting(HostCommand::instance).containsExactly(0, 1, 2, 3);
    assertThat(p.streams()).isEqualTo(4);
    assertThat(p.samplers()).extracting(HostCommand::host).containsExactly("sut", "peer", "aux1");
    assertThat(p.results()).extracting(ResultRule::metric)
        .containsExactly("rx_pps", "send_pps", "recv_pps", "send_bps", "recv_bps");
    assertThat(p.sutIface()).isEqualTo("eth0");
  }

  @Test
  void udpStreamWithoutSarOnTheSutKeepsSeed003sFigure() throws Exception {
    // sar on the senders only: their offered load on record, the value still messages okay ÷ elapsed
    TestProcedure p = only("{ type: udp_stream, clients: [peer, aux1], sar: [peer, aux1] }");
    assertThat(rendered(p.servers())).containsExactly("sut: netserver -D -p 11256", "sut: netserver -D -p 11257");
    assertThat(p.samplers()).extracting(HostCommand::host).containsExactly("peer", "aux1");
    assertThat(p.results().get(0).metric()).isEqualTo("send_pps");
    assertThat(p.sutIface()).isNull();
    // the SUT sending (reverse): its sar reads what it sends, so the sums stay the value
    TestProcedure r = only("{ type: udp_stream, clients: [peer, aux1], reverse: true, sar: sut, streams: 3 }");
    assertThat(rendered(r.servers())).containsExactly("peer: netserver -D -p 11256", "aux1: netserver -D -p 11256");
    assertThat(r.clients()).extracting(HostCommand::host).containsOnly("sut").hasSize(3);
    assertThat(r.results().get(0).metric()).isEqualTo("send_pps");
    assertThat(r.sutIface()).isNull();
  }
}
