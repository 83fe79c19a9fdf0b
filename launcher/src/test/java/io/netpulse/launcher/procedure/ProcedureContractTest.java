package io.netpulse.launcher.procedure;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.plan.TestType;
import io.netpulse.processor.run.RunValueRules;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The launcher's result rules and the processor's run-value rules are one contract: for every plan
 * test type, the same metrics, made of the same sample metrics, in the same units, combined the same way.
 */
@Tag("unit")
class ProcedureContractTest {

  /** One test of every type, each with what its type needs. */
  private static final String EVERY_TYPE = """
        - { type: latency }
        - { type: sockperf_latency }
        - { type: rx_bandwidth }
        - { type: tx_bandwidth }
        - { type: iperf_bandwidth }
        - { type: rx_pps }
        - { type: tx_pps, tool: netperf }
        - { type: high_pps, senders: [peer, aux1] }
        - { type: new_connections }
        - { type: concurrent_connections }
        - { type: tcp_rr, clients: [peer, aux1] }
        - { type: udp_stream, clients: [peer, aux1] }
        - { type: udp_stream, name: udp-sar-on-sut, clients: [peer, aux1], sar: sut, server_ports: shared }
        - { type: udp_stream, name: udp-reverse-sar-on-sut, clients: [peer, aux1], sar: all, reverse: true }
      """;

  /** What both sides must agree on, in the processor's terms. */
  record Term(String metric, String sampleMetric, String unit, RunValueRules.How how) {}

  private static List<Term> launcherTerms(TestProcedure p) {
    return p.results().stream().map(r -> new Term(r.metric(), r.sampleMetric(), r.unit(), r.combine().how())).toList();
  }

  /** The processor's rules for a run of the procedure's type that names the interface the procedure names. */
  private static List<Term> processorTerms(TestProcedure p) {
    return RunValueRules.forRun(p.test().type().yamlName(), p.sutIface()).stream()
        .map(r -> new Term(r.metric(), r.sourceMetric(), r.unit(), r.how())).toList();
  }

  @Test
  void everyTestTypesResultRulesAreTheProcessorsRulesForThatType() throws Exception {
    Plan plan = ProceduresTest.plan(EVERY_TYPE);
    Set<TestType> seen = EnumSet.noneOf(TestType.class);
    for (TestSpec t : plan.tests()) {
      TestProcedure p = Procedures.build(plan, t, ProceduresTest.FOUR_QUEUES);
      assertThat(processorTerms(p)).as("processor rules for " + t.type().yamlName()).isNotEmpty();
      assertThat(launcherTerms(p)).as(t.label()).containsExactlyElementsOf(processorTerms(p));
      seen.add(t.type());
    }
    assertThat(seen).as("every test type is checked").containsExactlyInAnyOrder(TestType.values());
  }

  /**
   * udp_stream's two shapes: with sar on the SUT (seed 002) the run names the SUT's interface and the headline is
   * sar's rx_pps there; without (seed 003, or the SUT sending in reverse) it names none and the sums are the value.
   */
  @Test
  void udpStreamsShapeIsTheSutsSarAndTheRunSaysSoByNamingTheInterface() throws Exception {
    Plan plan = ProceduresTest.plan(EVERY_TYPE);
    List<TestProcedure> udp = plan.tests().stream().filter(t -> t.type() == TestType.UDP_STREAM)
        .map(t -> Procedures.build(plan, t, ProceduresTest.FOUR_QUEUES)).toList();
    assertThat(udp).extracting(TestProcedure::sutIface).containsExactly(null, "eth0", null);
    assertThat(udp.get(1).results().get(0)).isEqualTo(
        new ResultRule("rx_pps", "packets/s", "sar-dev", "rx_pps", "sut", "eth0", Combine.MEAN_OF_SAMPLES));
    assertThat(udp.get(0).results().get(0).metric()).isEqualTo("send_pps");
    assertThat(udp.get(2).results().get(0).metric()).isEqualTo("send_pps");
    // the rule the processor keeps for runs naming the interface is the one the launcher adds
    assertThat(RunValueRules.forTest("udp_stream")).filteredOn(RunValueRules.Rule::whenSutSar)
        .extracting(RunValueRules.Rule::metric).containsExactly("rx_pps");
  }

  @Test
  void everyCombineHasItsOwnProcessorHow() {
    assertThat(EnumSet.allOf(Combine.class).stream().map(Combine::how).distinct())
        .containsExactlyInAnyOrder(RunValueRules.How.values());
  }

  @Test
  void aRunEventNamesTheTestItsTypeAndTheSutsInterface() throws Exception {
    Plan plan = ProceduresTest.plan("""
          - { type: rx_bandwidth, name: into-sut }
          - { type: latency }
        """);
    TestProcedure rx = Procedures.build(plan, plan.tests().get(0), ProceduresTest.FOUR_QUEUES);
    RunEvent e = rx.runEvent("run-1", plan.name(), 2, RunEvent.Phase.MEASURING, 5L, null);
    assertThat(e).isEqualTo(RunEvent.ofRepetition("run-1", "p", "into-sut", 2, RunEvent.Phase.MEASURING, 5L, null,
        "rx_bandwidth", "sut", "eth0"));
    TestProcedure lat = Procedures.build(plan, plan.tests().get(1), ProceduresTest.FOUR_QUEUES);
    RunEvent l = lat.runEvent("run-1", plan.name(), 1, RunEvent.Phase.DONE, 9L, "ok");
    assertThat(l.type()).isEqualTo("latency");
    assertThat(l.test()).isEqualTo("latency");
    assertThat(l.iface()).isNull(); // no sar-based result
  }
}
