package io.netpulse.launcher.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The keys that let a plan say what a seed's commands say: sar hosts, clients, tool options; checked at load. */
@Tag("unit")
class TrafficKeysTest {

  private static final String HOSTS = """
      name: t
      hosts:
        sut:  { address: 198.18.0.2 }
        peer: { address: 198.18.0.1 }
        aux1: { address: 198.18.0.3 }
      tests:
      """;

  private static List<String> errorsOf(String tests) {
    try {
      PlanLoader.parse("plan.yaml", Path.of("/plans"), HOSTS + tests);
    } catch (PlanException e) {
      return e.errors().stream().map(PlanError::describe).toList();
    }
    throw new AssertionError("plan loaded without errors:\n" + tests);
  }

  private static TestSpec only(String test) throws PlanException {
    return PlanLoader.parse("plan.yaml", Path.of("/plans"), HOSTS + "  - " + test + "\n").tests().get(0);
  }

  @Test
  void sarRunsOnTheSutByDefaultWhereTheValueIsSarsAndNowhereElseUnlessAsked() throws Exception {
    assertThat(only("{ type: rx_pps }").options().sarHosts()).containsExactly("sut");
    assertThat(only("{ type: tcp_rr, clients: [peer, aux1] }").options().sarHosts()).containsExactly("sut");
    assertThat(only("{ type: udp_stream, clients: [peer] }").options().sarHosts()).isEmpty();
    assertThat(only("{ type: new_connections }").options().sarHosts()).isEmpty();
    // all: the SUT and every host the test sends from or to (seed 001 samples all four machines)
    assertThat(only("{ type: high_pps, senders: [peer, aux1], sar: all }").options().sarHosts())
        .containsExactly("sut", "peer", "aux1");
    assertThat(only("{ type: udp_stream, clients: [peer, aux1], sar: sut }").options().sarHosts())
        .containsExactly("sut");
    // a list names hosts; the SUT comes first whatever the order
    assertThat(only("{ type: rx_bandwidth, clients: [peer, aux1], sar: [aux1, sut] }").options().sarHosts())
        .containsExactly("sut", "aux1");
    assertThat(only("{ type: udp_stream, clients: [peer, aux1], sar: [peer] }").options().sarHosts())
        .containsExactly("peer");
    assertThat(only("{ type: udp_stream, clients: [peer], sar: none }").options().sarHosts()).isEmpty();
  }

  @Test
  void sarMustKeepTheSutWhereTheValueIsSarsAndNameKnownHosts() {
    assertThat(errorsOf("""
          - { type: rx_pps, sar: none }
          - { type: tx_bandwidth, sar: [peer] }
          - { type: udp_stream, clients: [peer], sar: [peeer] }
          - { type: rx_bandwidth, sar: { sut: true } }
          - { type: tx_pps, sar: [sut, aux1] }
        """)).containsExactly(
        "plan.yaml:7:26: test 1 (rx_pps) sar leaves out the SUT 'sut', whose sar rows give this test's value, "
            + "expected sut, all or a list that names 'sut'",
        "plan.yaml:8:32: test 2 (tx_bandwidth) sar leaves out the SUT 'sut', whose sar rows give this test's value, "
            + "expected sut, all or a list that names 'sut'",
        "plan.yaml:9:48: test 3 (udp_stream) sar refers to host 'peeer', which is not in hosts, did you mean 'peer'? "
            + "expected sut, all, none or host names of: sut, peer, aux1",
        "plan.yaml:10:32: test 4 (rx_bandwidth) sar is a mapping, expected sut, all, none or a list of host names",
        "plan.yaml:11:32: test 5 (tx_pps) sar lists 'aux1', which this test does not use, expected some of: sut, peer");
  }

  @Test
  void netperfsTestSpecificOptionsAndIperf3sRate() throws Exception {
    // seeds 001/004: netperf -t TCP_STREAM ... -- -D with netperf's own send size
    TestSpec bw = only("{ type: rx_bandwidth, message: tool_default, no_delay: true }");
    assertThat(bw.messageBytes()).isNull();
    assertThat(bw.options().noDelay()).isTrue();
    assertThat(only("{ type: rx_bandwidth }").messageBytes()).isEqualTo(1440);
    assertThat(only("{ type: rx_bandwidth }").options().noDelay()).isFalse();
    // seed 000: iperf3 -c ... -b 0M
    assertThat(only("{ type: rx_pps }").rate()).isEqualTo("0M");
    assertThat(only("{ type: tx_pps, rate: 500M }").rate()).isEqualTo("500M");
    assertThat(only("{ type: rx_pps, tool: netperf }").rate()).isNull();
    assertThat(only("{ type: iperf_bandwidth }").rate()).isEqualTo("2048M");
  }

  @Test
  void optionsOfAnotherToolAreRefusedWhereTheyAre() {
    assertThat(errorsOf("""
          - { type: rx_pps, no_delay: true }
          - { type: tx_pps, tool: netperf, rate: 1G }
          - { type: rx_pps, name: b, tool: netperf, message: tool_default }
          - { type: rx_pps, name: c, rate: fast }
          - { type: tcp_rr, no_delay: 1 }
        """)).containsExactly(
        "plan.yaml:7:31: test 1 (rx_pps) no_delay is netperf's test-specific -D, but the test runs iperf3, "
            + "expected tool: netperf or no no_delay",
        "plan.yaml:8:42: test 2 (tx_pps) rate is iperf3's -b, but the test runs netperf, which sends as fast as it "
            + "can; expected tool: iperf3 or no rate",
        "plan.yaml:9:54: test 3 (rx_pps) message is 'tool_default', which only rx_bandwidth and tx_bandwidth take "
            + "(netperf TCP_STREAM without -m), expected a size in bytes",
        "plan.yaml:10:36: test 4 (rx_pps) rate is 'fast', expected a bit rate such as 2048M, 10G or 0 (unlimited)",
        "plan.yaml:11:31: test 5 (tcp_rr) no_delay is a whole number (1), expected true or false");
  }

  @Test
  void udpStreamServerPortsAndStreams() throws Exception {
    // seed 002: one bare netserver (port 12865) for all eight senders
    TestSpec shared = only("{ type: udp_stream, clients: [peer, aux1], server_ports: shared }");
    assertThat(shared.options().sharedServerPort()).isTrue();
    assertThat(shared.port()).isEqualTo(12865);
    assertThat(shared.streams()).isNull(); // one instance per client
    // seed 003: netserver -p 11256 + i per ECS instance
    TestSpec perInstance = only("{ type: udp_stream, clients: [peer, aux1], streams: 4 }");
    assertThat(perInstance.options().sharedServerPort()).isFalse();
    assertThat(perInstance.port()).isEqualTo(11256);
    assertThat(perInstance.streams()).isEqualTo(Streams.of(4));
    assertThat(errorsOf("""
          - { type: udp_stream, clients: [peer], reverse: true, server_ports: shared }
          - { type: udp_stream, name: u2, clients: [peer], server_ports: one }
        """)).containsExactly(
        "plan.yaml:7:71: test 1 (udp_stream) server_ports is for the server's netservers, but with reverse: true "
            + "the clients run them (one each, on port), expected no server_ports",
        "plan.yaml:8:66: test 2 (udp_stream) server_ports is text ('one'), expected one of: per_instance, shared");
  }

  @Test
  void everyTrafficTestTakesClientsAndNoneSendsToItself() throws Exception {
    for (String type : List.of("rx_bandwidth", "tx_bandwidth", "iperf_bandwidth", "rx_pps", "tx_pps",
        "new_connections", "tcp_rr", "udp_stream", "concurrent_connections")) {
      assertThat(only("{ type: " + type + ", clients: [peer, aux1] }").clients()).as(type)
          .containsExactly("peer", "aux1");
    }
    assertThat(only("{ type: new_connections }").clients()).containsExactly("peer");
    assertThat(errorsOf("  - { type: new_connections, clients: [aux1, sut] }\n")).containsExactly(
        "plan.yaml:7:46: test 1 (new_connections) clients lists 'sut', the host they send to; expected other hosts");
  }
}
