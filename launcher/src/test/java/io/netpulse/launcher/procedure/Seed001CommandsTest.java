package io.netpulse.launcher.procedure;

import static io.netpulse.launcher.procedure.Seed000CommandsTest.assertEach;
import static io.netpulse.launcher.procedure.Seed000CommandsTest.assertSarOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.plan.IrqAffinity;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * examples/seed-001-aliyun.yaml against seed 001 (Alibaba Cloud, "网络性能测试方法"); seed 004 prints the
 * same commands in English (Seed004CommandsTest).
 */
@Tag("unit")
class Seed001CommandsTest {

  /** "网络PPS小于600万" step 4, and seed 004 "Less than 6 million pps": 64 netservers on the test machine. */
  static final String PPS_NETSERVER = "netserver -p $[16000+j] > server_$[16000+j].netperf > /dev/null 2>&1  &";
  /** "网络PPS小于600万" step 6. */
  static final String PPS_NETPERF =
      "netperf -H ${server_ip} -l ${run_time:-300} -t UDP_STREAM  -p $port  -- -m 1 -D > /dev/null 2>&1 &";
  /** "网络PPS大于600万小于2000万" step 4 and "网络PPS大于2000万" step 5, on three auxiliary machines. */
  static final String SOCKPERF_TP = "nohup sockperf tp -i $server_ip --pps max -m ${msg_size} -t ${run_time} "
      + "--port $[${basePort}+${i}] 2>&1 &";
  /** "Linux实例" (bandwidth) step 4. */
  static final String BW_NETSERVER = "netserver -p $[16000+j] > server_$[16000+j].netperf 2>&1 &";
  /** "Linux实例" (bandwidth) step 6. */
  static final String BW_NETPERF =
      "netperf -H ${server_ip} -l ${run_time:-300} -t TCP_STREAM -p $port -- -D > /dev/null 2>&1 & ";

  static void checkPpsBelow6M(SeedPlans seed, String netserverLine, String netperfLine) {
    TestProcedure p = seed.test("pps-below-6M");
    String sut = seed.address("sut");
    assertEach(p.servers(), "sut", i -> SeedLine.seed(netserverLine, "$[16000+j]", 16001 + i).foreground());
    assertThat(p.servers()).hasSize(64);
    assertEach(p.clients(), "peer", i -> SeedLine.seed(netperfLine, "${server_ip}", sut, "${run_time:-300}", 300,
        "$port", 16001 + i).netperfDemoMode());
    // step 7: sar -n DEV 1 on the test machine
    assertSarOn(p, List.of("sut"), "sar -n DEV 1");
  }

  /** Three auxiliary machines × 64 sockperf tp, sar on all four machines (step 5 / 6: "分别在3台辅助测试机和1台测试机上"). */
  static void checkHighPps(SeedPlans seed, String name, String sockperfLine) {
    TestProcedure p = seed.test(name);
    String sut = seed.address("sut");
    assertThat(p.clients()).hasSize(3 * 64);
    List<String> senders = List.of("peer", "aux2", "aux3");
    for (int s = 0; s < 3; s++) {
      List<HostCommand> mine = p.clients().subList(64 * s, 64 * (s + 1));
      assertEach(mine, senders.get(s), i -> SeedLine.seed(sockperfLine, "$[${basePort}+${i}]", 6666 + i,
          "$server_ip", sut, "${msg_size}", 14, "${run_time}", 60));
    }
    assertThat(p.servers()).isEmpty(); // the seed starts no receiver: the SUT's kernel takes the datagrams
    assertSarOn(p, List.of("sut", "peer", "aux2", "aux3"), "sar -n DEV 1");
  }

  static void checkBandwidth(SeedPlans seed, String netserverLine, String netperfLine) {
    TestProcedure p = seed.test("rx_bandwidth");
    String sut = seed.address("sut");
    assertEach(p.servers(), "sut", i -> SeedLine.seed(netserverLine, "$[16000+j]", 16001 + i).foreground());
    // -- -D alone: netperf's own send size, no -m
    assertEach(p.clients(), "peer", i -> SeedLine.seed(netperfLine, "${server_ip}", sut, "${run_time:-300}", 300,
        "$port", 16001 + i).netperfDemoMode());
    assertThat(p.clients()).hasSize(64);
    assertSarOn(p, List.of("sut"), "sar -n DEV 1");
  }

  static void checkSockperfLatency(SeedPlans seed, String server, String client, String placeholder) {
    TestProcedure p = seed.test("sockperf_latency");
    // the server in the foreground, on sockperf's own default port; pp's results read from its output, not a file
    assertThat(SeedLine.of(p.servers().get(0))).isEqualTo(SeedLine.seed(server).foreground()
        .explicitPort("--port", 11111));
    assertThat(SeedLine.of(p.clients().get(0))).isEqualTo(SeedLine.seed(client, placeholder, seed.address("sut"))
        .without("--full-log").explicitPort("--port", 11111));
  }

  @Test
  void ppsBelow6MIs64NetperfUdpStreamsWithNoDelay() throws Exception {
    checkPpsBelow6M(SeedPlans.load("seed-001-aliyun.yaml"), PPS_NETSERVER, PPS_NETPERF);
  }

  @Test
  void ppsAbove6MIsSockperfFromThreeMachinesWithSarOnAllFour() throws Exception {
    SeedPlans seed = SeedPlans.load("seed-001-aliyun.yaml");
    checkHighPps(seed, "pps-6M-20M", SOCKPERF_TP);
    checkHighPps(seed, "pps-above-20M", SOCKPERF_TP);
    // "网络PPS大于2000万" step 3: a=$(cat /proc/interrupts | grep virtio2-input | awk -F ':' '{print $1}')
    //   cpu=0; for irq in $a; do echo $cpu >/proc/irq/$irq/smp_affinity_list; let cpu+=2; done
    assertThat(seed.test("pps-above-20M").irqAffinity()).isEqualTo(new IrqAffinity("virtio2-input", 0, 2));
    assertThat(seed.test("pps-6M-20M").irqAffinity()).isNull();
  }

  @Test
  void bandwidthIs64NetperfTcpStreamsWithNoDelayAndNetperfsOwnSendSize() throws Exception {
    checkBandwidth(SeedPlans.load("seed-001-aliyun.yaml"), BW_NETSERVER, BW_NETPERF);
  }

  @Test
  void latencyIsSockperfPingPong() throws Exception {
    // "Linux实例" (latency) step 4: sockperf sr --tcp --daemonize; step 5: sockperf pp -i <测试机私网IP地址> --tcp -t 30
    //   -m 14 --full-log=result.json
    checkSockperfLatency(SeedPlans.load("seed-001-aliyun.yaml"), "sockperf sr --tcp --daemonize",
        "sockperf pp -i <测试机私网IP地址> --tcp -t 30 -m 14 --full-log=result.json", "<测试机私网IP地址>");
  }
}
