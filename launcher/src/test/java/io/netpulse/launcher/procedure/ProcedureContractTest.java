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
import org.junit.jupiter.api.Test;

/**
 * The launcher's result rules and the processor's run-value rules are one contract: for every plan
 * test type, the same metrics, made of the same sample metrics, in the same units, combined the same way.
 */
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
      """;

  /** What both sides must agree on, in the processor's terms. */
  record Term(String metric, String sampleMetric, String unit, RunValueRules.How how) {}

  private static List<Term> launcherTerms(TestProcedure p) {
    return p.results().stream().map(r -> new Term(r.metric(), r.sampleMetric(), r.unit(), r.combine().how())).toList();
  }

  private static List<Term> processorTerms(TestType type) {
    return RunValueRules.forTest(type.yamlName()).stream()
        .map(r -> new Term(r.metric(), r.sourceMetric(), r.unit(), r.how())).toList();
  }

  @Test
  void everyTestTypesResultRulesAreTheProcessorsRulesForThatType() throws Exception {
    Plan plan = ProceduresTest.plan(EVERY_TYPE);
    Set<TestType> seen = EnumSet.noneOf(TestType.class);
    for (TestSpec t : plan.tests()) {
      TestProcedure p = Procedures.build(plan, t, ProceduresTest.FOUR_QUEUES);
      assertThat(processorTerms(t.type())).as("processor rules for " + t.type().yamlName()).isNotEmpty();
      assertThat(launcherTerms(p)).as(t.label()).containsExactlyElementsOf(processorTerms(t.type()));
      seen.add(t.type());
    }
    assertThat(seen).as("every test type is checked").containsExactlyInAnyOrder(TestType.values());
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
    assertThat(e).isEqualTo(new RunEvent(RunEvent.SCHEMA, "run-1", "p", "into-sut", 2, RunEvent.Phase.MEASURING, 5L,
        null, "rx_bandwidth", "sut", "eth0"));
    TestProcedure lat = Procedures.build(plan, plan.tests().get(1), ProceduresTest.FOUR_QUEUES);
    RunEvent l = lat.runEvent("run-1", plan.name(), 1, RunEvent.Phase.DONE, 9L, "ok");
    assertThat(l.type()).isEqualTo("latency");
    assertThat(l.test()).isEqualTo("latency");
    assertThat(l.iface()).isNull(); // no sar-based result
  }
}
