package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.How;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * examples/seed-000-huawei.yaml against seed 000 (Huawei Cloud, "云服务器网络性能测试指导"): each
 * command the plan starts is the seed's line, quoted here as the seed prints it, less the differences
 * docs/seeds.md lists.
 */
@Tag("unit")
class Seed000CommandsTest {

  private static SeedPlans seed;
  private static String sut;
  private static String peer;

  @BeforeAll
  static void load() throws Exception {
    seed = SeedPlans.load("seed-000-huawei.yaml");
    sut = seed.address("sut");
    peer = seed.address("peer");
  }

  @Test
  void latencyIsQperfThenPing() {
    TestProcedure p = seed.test("latency");
    // "测试网络时延" 2.a, on the server: qperf &
    assertThat(SeedLine.of(p.servers().get(0))).isEqualTo(SeedLine.seed("qperf &").explicitPort("-lp", 19765));
    // 2.b, on the client: qperf [server端服务器ip地址] -t 60  tcp_lat udp_lat   -m 64  -vvu
    assertThat(SeedLine.of(p.clients().get(0))).isEqualTo(SeedLine.seed(
        "qperf [server端服务器ip地址] -t 60  tcp_lat udp_lat   -m 64  -vvu", "[server端服务器ip地址]", sut)
        .explicitPort("-lp", 19765));
    // 2.c, on the client, after qperf: ping [server端服务器ip地址] -c 120
    assertThat(SeedLine.of(p.clients().get(1))).isEqualTo(SeedLine.seed(
        "ping [server端服务器ip地址] -c 120", "[server端服务器ip地址]", sut).cLocale());
    assertThat(p.clients()).extracting(HostCommand::host, HostCommand::stage)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("peer", 1), org.assertj.core.groups.Tuple.tuple("peer", 2));
    // how long each runs by itself, which the launcher waits for before calling it hung: qperf's -t 60 is each of its
    // two tests' time (the seed's plan failed every repetition when qperf was given 60 s + slack), ping a reply a
    // second
    assertThat(p.toolSeconds()).isEqualTo(60);
    assertThat(p.clients()).extracting(HostCommand::runsSeconds).containsExactly(120L, 120L);
  }

  @Test
  void rxBandwidthIs128NetperfTcpStreamsIntoTheSutWithSarOnIt() {
    TestProcedure p = seed.test("rx_bandwidth");
    // "测试接收带宽" 2.a, on the server: for i in `seq 5001 5128`; do netserver  -p $i & done
    assertEach(p.servers(), "sut", i -> SeedLine.seed("for i in `seq 5001 5128`; do netserver  -p $i & done",
        "$i", 5001 + i).foreground());
    // 2.b, on the client: … netperf -H [server端服务器ip地址] -t TCP_STREAM -l 300  -p $i -- -m 1440 & done
    assertEach(p.clients(), "peer", i -> SeedLine.seed("for i in `seq 5001 5128`; do netperf -H [server端服务器ip地址] "
        + "-t TCP_STREAM -l 300  -p $i -- -m 1440 & done", "[server端服务器ip地址]", sut, "$i", 5001 + i)
        .netperfDemoMode());
    // 2.c, on the server: sar -n DEV 1 180
    assertSarOn(p, List.of("sut"), "sar -n DEV 1 180");
    assertThat(p.results()).extracting(ResultRule::sampleMetric, ResultRule::host)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("rx_bps", "sut"));
  }

  @Test
  void txBandwidthHasTheSutSendingToNetserversOnThePeer() {
    TestProcedure p = seed.test("tx_bandwidth");
    // "测试发送带宽" 2.a, on the client: for i in `seq 5001 5128`; do netserver  -p $i & done
    assertEach(p.servers(), "peer", i -> SeedLine.seed("for i in `seq 5001 5128`; do netserver  -p $i & done",
        "$i", 5001 + i).foreground());
    // 2.b, on the server: … netperf -H [client端服务器ip地址] -t TCP_STREAM -l 300  -p $i -- -m 1440 & done
    assertEach(p.clients(), "sut", i -> SeedLine.seed("for i in `seq 5001 5128`; do netperf -H [client端服务器ip地址] "
        + "-t TCP_STREAM -l 300  -p $i -- -m 1440 & done", "[client端服务器ip地址]", peer, "$i", 5001 + i)
        .netperfDemoMode());
    assertSarOn(p, List.of("sut"), "sar -n DEV 1 180");
  }

  @Test
  void rxAndTxPpsAre128Iperf3UdpStreamsOf64Bytes() {
    TestProcedure rx = seed.test("rx_pps");
    // "测试接收PPS" 2.a, on the server: for i in `seq 5001 5128`; do iperf3 -s -p $i  > /dev/null 2>&1 & done
    assertEach(rx.servers(), "sut", i -> SeedLine.seed(
        "for i in `seq 5001 5128`; do iperf3 -s -p $i  > /dev/null 2>&1 & done", "$i", 5001 + i));
    // 2.b, on the client: … iperf3 -c  [server端服务器ip地址] -b 0M -u -t 300 -l 64 -p $i   > /dev/null 2>&1 & done
    assertEach(rx.clients(), "peer", i -> SeedLine.seed("for i in `seq 5001 5128`; do iperf3 -c  [server端服务器ip地址] "
        + "-b 0M -u -t 300 -l 64 -p $i   > /dev/null 2>&1 & done", "[server端服务器ip地址]", sut, "$i", 5001 + i));
    assertSarOn(rx, List.of("sut"), "sar -n DEV 1 180");
    TestProcedure tx = seed.test("tx_pps");
    // "测试发送PPS" 2.a, on the client: for i in `seq 5001 5128`; do iperf3 -s -p $i   > /dev/null 2>&1 & done
    assertEach(tx.servers(), "peer", i -> SeedLine.seed(
        "for i in `seq 5001 5128`; do iperf3 -s -p $i   > /dev/null 2>&1 & done", "$i", 5001 + i));
    // 2.b, on the server: … iperf3 -c  [client端服务器ip地址] -b 0M -u -t 300 -l 64 -p $i   > /dev/null 2>&1 & done
    assertEach(tx.clients(), "sut", i -> SeedLine.seed("for i in `seq 5001 5128`; do iperf3 -c  [client端服务器ip地址] "
        + "-b 0M -u -t 300 -l 64 -p $i   > /dev/null 2>&1 & done", "[client端服务器ip地址]", peer, "$i", 5001 + i));
    assertSarOn(tx, List.of("sut"), "sar -n DEV 1 180");
  }

  @Test
  void newConnectionsAre256NetperfTcpCrrSummed() {
    TestProcedure p = seed.test("new_connections");
    // "测试新建连接" 2.a, on the server: for i in `seq 9001 9256`; do netserver  -p $i & done
    assertEach(p.servers(), "sut", i -> SeedLine.seed("for i in `seq 9001 9256`; do netserver  -p $i & done",
        "$i", 9001 + i).foreground());
    assertThat(p.servers()).hasSize(256);
    // 2.b, on the client: for i in `seq 9001 9256`; do netperf -H [server端服务器ip地址] -t TCP_CRR -l 20  -p $i
    //   -- -r 64 2>&1 >>tcp_crr_22.log & done   (its log is summed in 2.c; netpulse sums each instance's figure)
    assertEach(p.clients(), "peer", i -> SeedLine.seed("for i in `seq 9001 9256`; do netperf -H [server端服务器ip地址] "
        + "-t TCP_CRR -l 20  -p $i -- -r 64 2>&1 >>tcp_crr_22.log & done", "[server端服务器ip地址]", sut, "$i", 9001 + i)
        .netperfDemoMode());
    assertThat(p.samplers()).isEmpty(); // the seed runs no sar here
    assertThat(p.results().get(0).how()).isEqualTo(How.SUM_OVER_INSTANCES);
  }

  /** The example runs netpulse's own connection holder; {@code tool: c1000k} runs the seed's c1000k as it prints it. */
  @Test
  void concurrentConnectionsWithC1000kAreTheSeedsServerAndClientPerPort() throws Exception {
    Plan plan = PlanLoader.parse("c.yaml", Path.of("/p"), """
        name: c
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: concurrent_connections, tool: c1000k, c1000k_dir: /opt/c1000k } ]
        """);
    TestProcedure p = Procedures.build(plan, plan.tests().get(0), SeedPlans.EIGHT_QUEUES);
    // "测试并发连接" 2.a.3, on the server: for port in $(seq 2000 2000 64000); do ./server $port & done
    assertEach(p.servers(), "sut", i -> SeedLine.seed("./server $port &", "$port", 2000 + 2000 * i));
    assertThat(p.servers()).hasSize(32);
    // 2.b.3, on the client: for port in $(seq 2000 2000 64000); do ./client <server_ip> $port & done
    assertEach(p.clients(), "peer", i -> SeedLine.seed("./client <server_ip> $port &", "<server_ip>", "198.18.0.2",
        "$port", 2000 + 2000 * i));
    assertThat(seed.test("concurrent_connections").servers().get(0).tool()).isEqualTo("netpulse-connections");
  }

  static void assertEach(List<HostCommand> commands, String host, java.util.function.IntFunction<SeedLine> seedLine) {
    assertThat(commands).isNotEmpty();
    for (int i = 0; i < commands.size(); i++) {
      assertThat(commands.get(i).host()).as("instance " + i).isEqualTo(host);
      assertThat(SeedLine.of(commands.get(i))).as(commands.get(i).command().render()).isEqualTo(seedLine.apply(i));
    }
  }

  /** sar on exactly {@code hosts}, each the seed's {@code line} in netpulse's format, every second until stopped. */
  static void assertSarOn(TestProcedure p, List<String> hosts, String line) {
    assertThat(p.samplers()).extracting(HostCommand::host).containsExactlyElementsOf(hosts);
    for (HostCommand c : p.samplers()) {
      assertThat(SeedLine.of(c)).isEqualTo(SeedLine.seed(line).sarFormat().sarEverySecondUntilStopped());
    }
  }
}
