package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@link RunEndToEndTest}'s other half of the test types: packets per second, connections, TCP_RR. */
@Tag("root")
class PacketAndConnectionTypesEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void packetConnectionAndRequestResponseTypesGiveTheirResultsAndLeaveNothingRunning() throws Exception {
    Map<String, JsonNode> byKey = RunEndToEndTest.everyTypeGivesItsResults(HOSTS, dir, "e2e-packets-connections",
        Map.of(
            "{ type: rx_pps, tool: iperf3, streams: 2, duration: 3s }", List.of("rx_pps/rx_pps"),
            "{ type: tx_pps, tool: netperf, streams: 2, duration: 3s }", List.of("tx_pps/tx_pps"),
            "{ type: high_pps, senders: [peer], streams: 2, duration: 3s }", List.of("high_pps/rx_pps"),
            "{ type: new_connections, streams: 2, duration: 3s }", List.of("new_connections/connections_per_s"),
            "{ type: concurrent_connections, target: 2000, listeners: 2, clients: [peer], duration: 4s }",
            List.of("concurrent_connections/tcp_estab"),
            "{ type: tcp_rr, streams: 4, duration: 3s }", List.of("tcp_rr/trans_per_s")));
    // 2000 connections held: the SUT saw at least that many established
    assertThat(byKey.get("concurrent_connections/tcp_estab").path("mean").asDouble()).isGreaterThanOrEqualTo(2000);
  }
}
