package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.catalog.How;
import static io.netpulse.launcher.procedure.Seed000CommandsTest.assertSarOn;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** examples/seed-002-tencent.yaml against seed 002 (Tencent Cloud, "Network Performance Test"). */
@Tag("unit")
class Seed002CommandsTest {

  private static final List<String> TRAINING = List.of("peer", "train2", "train3", "train4", "train5", "train6",
      "train7", "train8");
  private static SeedPlans seed;
  private static String sut;

  @BeforeAll
  static void load() throws Exception {
    seed = SeedPlans.load("seed-002-tencent.yaml");
    sut = seed.address("sut");
  }

  @Test
  void bandwidthIsIperfWithAStreamPerQueue() {
    TestProcedure p = seed.test("iperf_bandwidth");
    // "Bandwidth Test", test machine: iperf -s
    assertThat(SeedLine.of(p.servers().get(0))).isEqualTo(SeedLine.seed("iperf -s").explicitPort("-p", 5001));
    // training machine: iperf -c 10.0.0.1 -b 2048M -t 300 -P 8   (8 = the network interface's queues)
    assertThat(p.clients()).hasSize(1);
    assertThat(SeedLine.of(p.clients().get(0))).isEqualTo(SeedLine.seed("iperf -c 10.0.0.1 -b 2048M -t 300 -P 8",
        "10.0.0.1", sut).explicitPort("-p", 5001));
    assertSarOn(p, List.of("sut"), "sar -n DEV 1");
  }

  /** The headline is sar's rx pps on the SUT, the senders' figures beside it: what the SUT took, not what was sent. */
  @Test
  void udpStreamIsEightSendersIntoOneNetserverWithSarOnTheSut() {
    TestProcedure p = seed.test("udp_stream");
    // "UDP-STREAM Test", test machine: netserver / sar -n DEV 2
    assertThat(p.servers()).hasSize(1);
    assertThat(p.servers().get(0).host()).isEqualTo("sut");
    assertThat(SeedLine.of(p.servers().get(0))).isEqualTo(SeedLine.seed("netserver").foreground()
        .explicitPort("-p", 12865));
    assertSarOn(p, List.of("sut"), "sar -n DEV 2");
    // training machines: ./netperf -H <private IP address of the tested machine -l 300 -t UDP_STREAM -- -m 1 &
    assertThat(p.clients()).extracting(HostCommand::host).containsExactlyElementsOf(TRAINING);
    for (HostCommand c : p.clients()) {
      assertThat(SeedLine.of(c)).isEqualTo(SeedLine.seed(
          "./netperf -H <private IP address of the tested machine -l 300 -t UDP_STREAM -- -m 1 &",
          "<private IP address of the tested machine", sut).explicitPort("-p", 12865).netperfDemoMode());
    }
    assertThat(p.results()).extracting(ResultRule::metric)
        .containsExactly("rx_pps", "send_pps", "recv_pps", "send_bps", "recv_bps");
    assertThat(p.results().get(0)).isEqualTo(
        new ResultRule("rx_pps", "packets/s", Sources.SAR_DEV, "rx_pps", "sut", "eth0", How.MEAN_ON_SUT));
  }

  @Test
  void tcpRrIs300NetperfsSpreadOverTheTrainingMachines() {
    TestProcedure p = seed.test("tcp_rr");
    // "TCP-RR Test", test machine: netserver / sar -n DEV 2
    assertThat(SeedLine.of(p.servers().get(0))).isEqualTo(SeedLine.seed("netserver").foreground()
        .explicitPort("-p", 12865));
    assertSarOn(p, List.of("sut"), "sar -n DEV 2");
    // training machines, ≥ 300 in total: ./netperf -H <private IP address of the tested machine -l 300 -t TCP_RR
    //   -- -r 1,1 &
    assertThat(p.clients()).hasSize(300);
    for (int i = 0; i < p.clients().size(); i++) {
      HostCommand c = p.clients().get(i);
      assertThat(c.host()).isEqualTo(TRAINING.get(i % TRAINING.size()));
      assertThat(SeedLine.of(c)).isEqualTo(SeedLine.seed(
          "./netperf -H <private IP address of the tested machine -l 300 -t TCP_RR -- -r 1,1 &",
          "<private IP address of the tested machine", sut).explicitPort("-p", 12865).netperfDemoMode());
    }
  }
}
