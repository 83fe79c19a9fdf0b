package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.procedure.Procedures;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which test types {@code stop: steady} may end early: those whose every value can come from per-second figures. */
@Tag("unit")
class SteadyStoppableTest {

  @Test
  void sampledTestsTheNetperfSumsAndIperfBandwidthStopEarlyTheOtherToolFiguresDoNot() throws Exception {
    Plan p = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
        tests:
          - { type: latency }
          - { type: sockperf_latency }
          - { type: rx_bandwidth }
          - { type: tx_bandwidth }
          - { type: iperf_bandwidth }
          - { type: rx_pps }
          - { type: tx_pps, tool: netperf }
          - { type: high_pps, senders: [peer] }
          - { type: new_connections }
          - { type: concurrent_connections, clients: [peer] }
          - { type: tcp_rr }
          - { type: udp_stream, clients: [peer] }
        """);
    Map<String, Boolean> stoppable = new TreeMap<>();
    for (var t : p.tests()) {
      TestProcedure proc = Procedures.build(p, t, new SutFacts("eth0", 1));
      stoppable.put(t.label(), RepetitionRunner.steadyStoppable(proc));
    }
    assertThat(stoppable).containsValues(true, false);
    stoppable.forEach((test, stops) -> {
      // qperf, ping and sockperf print their figures only at the end; udp_stream's receive figures come only from
      // netserver at the end (netperf's interim lines are the sender's rate)
      boolean expected = !(test.contains("latency") || test.contains("udp_stream"));
      assertThat(stops).as(test).isEqualTo(expected);
    });
    // the netperf sums stop on their interim lines, iperf's sender_bps on its per-second sum rows
    assertThat(stoppable.entrySet().stream().filter(e -> e.getKey().contains("new_connections")
        || e.getKey().contains("tcp_rr") || e.getKey().contains("iperf_bandwidth")).allMatch(Map.Entry::getValue))
        .isTrue();
  }
}
