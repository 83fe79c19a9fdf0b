package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.catalog.How;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.tools.Sampler;
import io.netpulse.launcher.plan.IrqAffinity;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Generated commands against the seeds' command lines (seed text quoted above each check). */
@Tag("unit")
class ProceduresTest {

  static final SutFacts FOUR_QUEUES = new SutFacts("eth0", 4);

  static Plan plan(String tests) throws Exception {
    return PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        warmup: 5s
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
          aux1: { address: 198.18.0.3 }
          aux2: { address: 198.18.0.4, java: /opt/jdk/bin/java }
        tests:
        """ + tests);
  }

  static TestProcedure only(String test) throws Exception {
    Plan p = plan("  - " + test + "\n");
    return Procedures.build(p, p.tests().get(0), FOUR_QUEUES);
  }

  static List<String> rendered(List<HostCommand> commands) {
    return commands.stream().map(c -> c.host() + ": " + c.command().render()).toList();
  }

  @Test
  void latencyIsQperfThenPing() throws Exception {
    // seed 000: qperf &  /  qperf [server] -t 60 tcp_lat udp_lat -m 64 -vvu  /  ping [server] -c 120, also under the
    // default stop (steady, precision): qperf's 1-s loops only when the test asks (qperf_loop, StagedPrecisionTest)
    TestProcedure p = only("{ type: latency, duration: 60s, ping_count: 120 }");
    assertThat(rendered(p.servers())).containsExactly("sut: qperf -lp 19765");
    assertThat(rendered(p.clients())).containsExactly(
        "peer: qperf 198.18.0.2 -lp 19765 -t 60 tcp_lat udp_lat -m 64 -vvu",
        "peer: env LC_ALL=C ping -c 120 198.18.0.2");
    assertThat(p.clients()).extracting(HostCommand::stage).containsExactly(1, 2);
    assertThat(p.results()).extracting(ResultRule::metric).containsExactly("tcp_lat_us", "udp_lat_us", "rtt_avg_ms");
    assertThat(p.results()).extracting(ResultRule::unit).containsExactly("us", "us", "ms");
  }

  @Test
  void sockperfLatency() throws Exception {
    // seed 004: sockperf sr --tcp --daemonize  /  sockperf pp -i <SUT> --tcp -t 30 -m 14
    TestProcedure p = only("{ type: sockperf_latency, duration: 30s }");
    assertThat(rendered(p.servers())).containsExactly("sut: sockperf sr --tcp --port 11111");
    assertThat(rendered(p.clients())).containsExactly("peer: sockperf pp -i 198.18.0.2 --tcp -t 30 -m 14 --port 11111");
    assertThat(p.results()).extracting(ResultRule::sampleMetric).containsExactly("avg_latency_us", "p99_us");
  }

  @Test
  void rxBandwidthFansOutAutoStreamsIntoTheSut() throws Exception {
    // seed 000: for i in `seq 5001 5128`; do netserver -p $i & done    (server = SUT)
    //           for i in ...; do netperf -H [server] -t TCP_STREAM -l 300 -p $i -- -m 1440 & done
    //           sar -n DEV 1 180 on the server; rxkB/s
    TestProcedure p = only("{ type: rx_bandwidth, streams: auto, duration: 295s }");
    assertThat(p.streams()).isEqualTo(8); // 2 × 4 queues
    assertThat(p.toolSeconds()).isEqualTo(300); // 5 s warm-up + 295 s
    assertThat(rendered(p.servers())).hasSize(8).first().isEqualTo("sut: netserver -D -p 5001");
    assertThat(rendered(p.servers())).last().isEqualTo("sut: netserver -D -p 5008");
    assertThat(rendered(p.clients())).hasSize(8).first()
        .isEqualTo("peer: netperf -H 198.18.0.2 -t TCP_STREAM -l 300 -p 5001 -D 1 -- -m 1440");
    assertThat(rendered(p.samplers())).containsExactly("sut: env LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC sar -n DEV 1");
    assertThat(p.results()).containsExactly(
        new ResultRule("rx_bps", "bit/s", Sources.SAR_DEV, "rx_bps", "sut", "eth0", How.MEAN_ON_SUT));
  }

  @Test
  void txBandwidthHasTheSutSendingToNetserversOnThePeer() throws Exception {
    TestProcedure p = only("{ type: tx_bandwidth, streams: 3 }");
    assertThat(rendered(p.servers())).containsExactly("peer: netserver -D -p 5001", "peer: netserver -D -p 5002",
        "peer: netserver -D -p 5003");
    assertThat(rendered(p.clients())).allMatch(s -> s.startsWith("sut: netperf -H 198.18.0.1 -t TCP_STREAM -l 35 "));
    assertThat(p.samplers()).extracting(HostCommand::host).containsExactly("sut");
    assertThat(p.results().get(0).sampleMetric()).isEqualTo("tx_bps");
  }

  @Test
  void rxPpsWithIperf3AndTxPpsWithNetperf() throws Exception {
    // seed 000: iperf3 -s -p $i  /  iperf3 -c [server] -b 0M -u -t 300 -l 64 -p $i
    TestProcedure rx = only("{ type: rx_pps, streams: 2, duration: 25s }");
    assertThat(rendered(rx.servers())).containsExactly("sut: iperf3 -s -p 5001", "sut: iperf3 -s -p 5002");
    assertThat(rendered(rx.clients())).containsExactly(
        "peer: stdbuf -oL iperf3 -c 198.18.0.2 -b 0M -u -t 30 -l 64 -p 5001", "peer: stdbuf -oL iperf3 -c 198.18.0.2 -b 0M -u -t 30 -l 64 -p 5002");
    assertThat(rx.results().get(0)).isEqualTo(
        new ResultRule("rx_pps", "packets/s", Sources.SAR_DEV, "rx_pps", "sut", "eth0", How.MEAN_ON_SUT));
    // seed 001: netserver -p $[16000+j]  /  netperf -H ${server_ip} -l 300 -t UDP_STREAM -p $port -- -m 1
    TestProcedure tx = only("{ type: tx_pps, tool: netperf, streams: auto, streams_per_queue: 3 }");
    assertThat(tx.streams()).isEqualTo(12);
    assertThat(rendered(tx.servers())).first().isEqualTo("peer: netserver -D -p 16001");
    assertThat(rendered(tx.clients())).first()
        .isEqualTo("sut: netperf -H 198.18.0.1 -t UDP_STREAM -l 35 -p 16001 -D 1 -- -m 1");
    assertThat(tx.results().get(0).sampleMetric()).isEqualTo("tx_pps");
  }

  @Test
  void highPpsSendsFromEverySenderWithIrqAffinity() throws Exception {
    // seeds 001/004: on 3 auxiliary machines: for i in 0..63: sockperf tp -i $server_ip --pps max -m 14 -t 60 --port $[6666+i]
    TestProcedure p = only("{ type: high_pps, senders: [peer, aux1, aux2], streams: 64, duration: 55s, "
        + "irq_affinity: { match: virtio2-input } }");
    assertThat(p.clients()).hasSize(192);
    assertThat(p.servers()).isEmpty();
    assertThat(rendered(p.clients())).contains("peer: sockperf tp -i 198.18.0.2 --pps max -m 14 -t 60 --port 6666",
        "aux2: sockperf tp -i 198.18.0.2 --pps max -m 14 -t 60 --port 6729");
    assertThat(p.clients()).extracting(HostCommand::instance).doesNotHaveDuplicates();
    assertThat(p.irqAffinity()).isEqualTo(new IrqAffinity("virtio2-input", 0, 2));
    assertThat(p.results().get(0).sampleMetric()).isEqualTo("rx_pps");
  }

  @Test
  void newConnectionsSumTcpCrrOverPorts() throws Exception {
    // seed 000: for i in `seq 9001 9256`; do netserver -p $i & done
    //           netperf -H [server] -t TCP_CRR -l 20 -p $i -- -r 64   ; sum of $6 (Trans. Rate)
    TestProcedure p = only("{ type: new_connections, duration: 15s }");
    assertThat(p.streams()).isEqualTo(256);
    assertThat(rendered(p.servers())).last().isEqualTo("sut: netserver -D -p 9256");
    assertThat(rendered(p.clients())).first()
        .isEqualTo("peer: netperf -H 198.18.0.2 -t TCP_CRR -l 20 -p 9001 -D 1 -- -r 64");
    assertThat(p.results()).containsExactly(new ResultRule("connections_per_s", "connections/s", "netperf",
        "trans_per_s", "peer", null, How.SUM_OVER_INSTANCES));
  }

  @Test
  void tcpRrDealsInstancesOverClients() throws Exception {
    // seed 002: netserver  /  ≥ 300 × ./netperf -H <SUT> -l 300 -t TCP_RR -- -r 1,1 from 8 machines
    TestProcedure p = only("{ type: tcp_rr, clients: [peer, aux1, aux2], duration: 295s }");
    assertThat(p.clients()).hasSize(300);
    assertThat(rendered(p.servers())).containsExactly("sut: netserver -D -p 12865");
    assertThat(rendered(p.clients())).startsWith(
        "peer: netperf -H 198.18.0.2 -t TCP_RR -l 300 -p 12865 -D 1 -- -r 1,1",
        "aux1: netperf -H 198.18.0.2 -t TCP_RR -l 300 -p 12865 -D 1 -- -r 1,1");
    assertThat(p.clients().stream().filter(c -> c.host().equals("aux2")).count()).isEqualTo(100);
    assertThat(p.results().get(0).how()).isEqualTo(How.SUM_OVER_INSTANCES);
  }

  @Test
  void udpStreamLinkTestNClientsToOneServer() throws Exception {
    // seed 003: netserver -p 11256..11263 on the server; client i: netperf -H server -p 1125x -t UDP_STREAM -l 300 -- -m 1
    TestProcedure p = only("{ type: udp_stream, clients: [peer, aux1, aux2], duration: 295s }");
    assertThat(rendered(p.servers())).containsExactly("sut: netserver -D -p 11256", "sut: netserver -D -p 11257",
        "sut: netserver -D -p 11258");
    assertThat(rendered(p.clients())).containsExactly(
        "peer: netperf -H 198.18.0.2 -t UDP_STREAM -l 300 -p 11256 -D 1 -- -m 1",
        "aux1: netperf -H 198.18.0.2 -t UDP_STREAM -l 300 -p 11257 -D 1 -- -m 1",
        "aux2: netperf -H 198.18.0.2 -t UDP_STREAM -l 300 -p 11258 -D 1 -- -m 1");
    assertThat(p.results().get(0)).isEqualTo(
        new ResultRule("send_pps", "packets/s", "netperf", "send_pps", null, null, How.SUM_OVER_INSTANCES));
    assertThat(p.results()).extracting(ResultRule::metric).containsExactly("send_pps", "recv_pps", "send_bps", "recv_bps");
    // seed 003, the other way: netserver -p 11256 on every ECS, the IDC device sends to each, -m 1400 for bps
    TestProcedure r = only("{ type: udp_stream, clients: [peer, aux1], reverse: true, message: 1400 }");
    assertThat(rendered(r.servers())).containsExactly("peer: netserver -D -p 11256", "aux1: netserver -D -p 11256");
    assertThat(rendered(r.clients())).containsExactly(
        "sut: netperf -H 198.18.0.1 -t UDP_STREAM -l 25 -p 11256 -D 1 -- -m 1400",
        "sut: netperf -H 198.18.0.3 -t UDP_STREAM -l 25 -p 11256 -D 1 -- -m 1400");
  }

  @Test
  void concurrentConnectionsWithNetpulseAndC1000k() throws Exception {
    // seed 000: for port in $(seq 2000 2000 64000); do ./server $port & done / ./client <server_ip> $port ; watch "ss -s"
    Plan plan = plan("""
          - { type: concurrent_connections, target: 50001, clients: [peer, aux2], duration: 55s }
          - { type: concurrent_connections, name: c1000k, tool: c1000k, c1000k_dir: /opt/c1000k }
        """);
    TestProcedure own = Procedures.build(plan, plan.tests().get(0), FOUR_QUEUES);
    // c1000k's server listens on PORT..PORT+99: 3,200 ports in all, which netpulse's one server process also serves
    assertThat(rendered(own.servers())).containsExactly(
        "sut: java -jar .netpulse/netpulse-holder.jar server --ports 2000:64000:2000 --block 100");
    // target is a cap, split over the clients; each runs warm-up + duration and says what ended its climb
    assertThat(rendered(own.clients())).containsExactly(
        "peer: java -jar .netpulse/netpulse-holder.jar client --server 198.18.0.2 --ports 2000:64000:2000 "
            + "--block 100 --connections 25001 --duration 60s",
        "aux2: /opt/jdk/bin/java -jar .netpulse/netpulse-holder.jar client --server 198.18.0.2 "
            + "--ports 2000:64000:2000 --block 100 --connections 25001 --duration 60s");
    assertThat(rendered(own.samplers()))
        .containsExactly("sut: sh -c " + RemoteCommand.quote(Sampler.SS_SUMMARY.shellCommand()));
    assertThat(own.results().get(0)).isEqualTo(new ResultRule("tcp_estab", "connections", "ss-summary",
        "tcp_estab", "sut", null, How.MAX_OVER_WINDOW));
    TestProcedure c1000k = Procedures.build(plan, plan.tests().get(1), FOUR_QUEUES);
    assertThat(c1000k.servers()).hasSize(32);
    assertThat(rendered(c1000k.servers())).first().isEqualTo("sut: /opt/c1000k/server 2000");
    assertThat(rendered(c1000k.servers())).last().isEqualTo("sut: /opt/c1000k/server 64000");
    assertThat(rendered(c1000k.clients())).first().isEqualTo("peer: /opt/c1000k/client 198.18.0.2 2000");
    // c1000k's client holds its connections forever: the launcher stops it after the test's time
    assertThat(c1000k.clients()).allMatch(HostCommand::untilStopped);
    assertThat(own.clients()).noneMatch(HostCommand::untilStopped);
  }

  /** Without a target the clients climb until something stops them; a host's source addresses go with it. */
  @Test
  void concurrentConnectionsClimbOpenEndedFromEachClientsSourceAddresses() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        warmup: 5s
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1, source_addresses: [198.18.0.1, 198.18.0.11] }
          aux1: { address: 198.18.0.3 }
        tests: [ { type: concurrent_connections, clients: [peer, aux1], duration: 120s, listeners: 2,
                   ports_per_listener: 4 } ]
        """);
    TestProcedure p = Procedures.build(plan, plan.tests().get(0), FOUR_QUEUES);
    assertThat(rendered(p.servers())).containsExactly(
        "sut: java -jar .netpulse/netpulse-holder.jar server --ports 2000:4000:2000 --block 4");
    assertThat(rendered(p.clients())).containsExactly(
        "peer: java -jar .netpulse/netpulse-holder.jar client --server 198.18.0.2 --ports 2000:4000:2000 "
            + "--block 4 --source 198.18.0.1,198.18.0.11 --duration 125s",
        "aux1: java -jar .netpulse/netpulse-holder.jar client --server 198.18.0.2 --ports 2000:4000:2000 "
            + "--block 4 --duration 125s");
  }

  @Test
  void nofileRaisesTheLimitOfTheStartedProcessesOnly() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        prepare: { nofile: 15000000, nr_open: 15000000, file_max: 15000000 }
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: concurrent_connections, tool: c1000k, listeners: 1 } ]
        """);
    TestProcedure p = Procedures.build(plan, plan.tests().get(0), FOUR_QUEUES);
    assertThat(rendered(p.servers())).containsExactly("sut: prlimit --nofile=15000000:15000000 c1000k/server 2000");
  }

  @Test
  void iperfBandwidthUsesQueueCountStreams() throws Exception {
    // seed 002: iperf -s  /  iperf -c 10.0.0.1 -b 2048M -t 300 -P 8   (8 = queues)
    TestProcedure p = only("{ type: iperf_bandwidth, duration: 295s }");
    // stop: steady (the default) also has it report each second, one sum row, in kbit/s: the early stop's value
    assertThat(rendered(p.clients()))
        .containsExactly("peer: iperf -c 198.18.0.2 -p 5001 -b 2048M -t 300 -P 4 -i 1 --sum-only -f k");
    Plan fixed = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        stop: fixed
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: iperf_bandwidth, duration: 295s } ]
        """);
    assertThat(rendered(Procedures.build(fixed, fixed.tests().get(0), FOUR_QUEUES).clients()))
        .containsExactly("peer: iperf -c 198.18.0.2 -p 5001 -b 2048M -t 300 -P 4");
    assertThat(rendered(p.servers())).containsExactly("sut: iperf -s -p 5001");
    assertThat(p.results()).containsExactly(
        new ResultRule("rx_bps", "bit/s", Sources.SAR_DEV, "rx_bps", "sut", "eth0", How.MEAN_ON_SUT),
        new ResultRule("sender_bps", "bit/s", "iperf", "sender_bps", null, null, How.SUM_OVER_INSTANCES));
  }

  @Test
  void portsPastTheEndAreRefused() throws Exception {
    Plan plan = plan("  - { type: rx_bandwidth, port: 65530 }\n");
    assertThatThrownBy(() -> Procedures.build(plan, plan.tests().get(0), new SutFacts("eth0", 8)))
        .hasMessageContaining("test 1 (rx_bandwidth): port 65530 + 6 is past 65535");
  }

  @Test
  void everyTestTypeHasAProcedure() throws Exception {
    Plan plan = PlanLoader.load(Path.of("..", "examples", "xlarge-vs-xlarge.yaml"));
    for (var t : io.netpulse.common.catalog.TestType.ALL) {
      assertThat(Procedures.forTest(new io.netpulse.launcher.plan.TestSpec(1, t, "x", null, null, 1, "sut", "peer",
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, false, null, null,
          null, null, null)))
          .isNotNull();
    }
    for (var t : plan.tests()) {
      TestProcedure p = Procedures.build(plan, t, FOUR_QUEUES);
      assertThat(p.clients()).as(t.label()).isNotEmpty();
      assertThat(p.results()).as(t.label()).isNotEmpty();
    }
  }
}
