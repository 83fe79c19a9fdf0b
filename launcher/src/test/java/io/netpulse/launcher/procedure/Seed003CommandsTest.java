package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.How;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * examples/seed-003-aliyun-link.yaml against seed 003 (Alibaba Cloud, "使用Netperf工具测试物理专线的包转发
 * 性能"); the seed's figure is messages okay ÷ elapsed of each netperf, summed.
 */
@Tag("unit")
class Seed003CommandsTest {

  private static final List<String> ECS = List.of("ecs1", "ecs2", "ecs3", "ecs4", "ecs5", "ecs6", "ecs7", "ecs8");
  private static SeedPlans seed;

  @BeforeAll
  static void load() throws Exception {
    seed = SeedPlans.load("seed-003-aliyun-link.yaml");
  }

  private static void checkIdcAsServer(String test, String message) {
    TestProcedure p = seed.test(test);
    String idc = seed.address("idc");
    // "测试IDC网络接入设备作为服务端的包转发性能": netserver -p 11256 … netserver -p 11263 on the IDC device
    Seed000CommandsTest.assertEach(p.servers(), "idc", i -> SeedLine.seed("netserver -p 11256", "11256", 11256 + i)
        .foreground());
    // netperf -H 192.168.100.1 -p 11256 -t UDP_STREAM -l 300 -- -m 1 #第一个ECS实例 (… 11263 #第八个ECS实例),
    // -m 1400 for bps
    assertThat(p.clients()).extracting(HostCommand::host).containsExactlyElementsOf(ECS);
    for (int i = 0; i < ECS.size(); i++) {
      assertThat(SeedLine.of(p.clients().get(i))).isEqualTo(SeedLine.seed(
          "netperf -H 192.168.100.1 -p 11256 -t UDP_STREAM -l 300 -- -m " + message + " #第一个ECS实例",
          "192.168.100.1", idc, "11256", 11256 + i).netperfDemoMode());
    }
    assertThat(p.samplers()).isEmpty();
    assertThat(p.results().get(0)).isEqualTo(
        new ResultRule("send_pps", "packets/s", "netperf", "send_pps", null, null, How.SUM_OVER_INSTANCES));
  }

  @Test
  void idcAsServerForPps() {
    checkIdcAsServer("idc-server-pps", "1");
  }

  @Test
  void idcAsServerForBps() {
    checkIdcAsServer("idc-server-bps", "1400");
  }

  @Test
  void idcAsClientSendsToANetserverOnEachEcs() {
    TestProcedure p = seed.test("idc-client-pps");
    // "测试IDC网络接入设备作为客户端的包转发性能": netserver -p 11256 on each of the 8 ECS instances
    assertThat(p.servers()).extracting(HostCommand::host).containsExactlyElementsOf(ECS);
    for (HostCommand s : p.servers()) {
      assertThat(SeedLine.of(s)).isEqualTo(SeedLine.seed("netserver -p 11256").foreground());
    }
    // netperf -H 172.16.0.2 -p 11256 -t UDP_STREAM -l 300 -- -m 1 #第一个ECS实例 … -H 172.16.0.9 #第八个ECS实例
    assertThat(p.clients()).extracting(HostCommand::host).containsOnly("idc").hasSize(8);
    for (int i = 0; i < ECS.size(); i++) {
      assertThat(SeedLine.of(p.clients().get(i))).isEqualTo(SeedLine.seed(
          "netperf -H 172.16.0.2 -p 11256 -t UDP_STREAM -l 300 -- -m 1 #第一个ECS实例",
          "172.16.0.2", seed.address(ECS.get(i))).netperfDemoMode());
    }
  }
}
