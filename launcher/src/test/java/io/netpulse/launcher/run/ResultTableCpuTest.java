package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The run's table notes and JSON repetitions carry each host's CPU use and the repetition's flags. */
@Tag("unit")
class ResultTableCpuTest {

  static CpuUse use(String run, String host, double allMean, CpuUse.Cpu busiest, String saturation) {
    CpuUse.Cpu all = new CpuUse.Cpu("all", allMean, allMean + 10, 20, 0.5, 0);
    CpuUse.Cpu other = new CpuUse.Cpu("cpu0", 30, 40, 1, 0.5, 0);
    return new CpuUse(CpuUse.SCHEMA, run, "p", "rx", 1, "p-x", host, 1_000, 11_000, 8, all, busiest,
        List.of(other, busiest), saturation != null, saturation);
  }

  @Test
  void aSaturatedHostAndNetpulsesOwnMachineAreFlaggedPerRepetition() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: rx_pps, name: rx } ]
        """);
    CpuUse.Cpu softirq = new CpuUse.Cpu("cpu1", 98.5, 100, 81.2, 0, 8);
    CpuUse.Cpu calm = new CpuUse.Cpu("cpu1", 45, 52, 3, 0, 0);
    String why = "cpu1 at least 95 % busy in 8 of 8 s (softirq 81.2 %, steal 0.0 % of its time)";
    Map<String, List<CpuUse>> cpu = Map.of(
        "r1", List.of(use("r1", "sut", 64.2, softirq, why), use("r1", "peer", 37.5, calm, null)),
        "r2", List.of(use("r2", "sut", 40, calm, null), use("r2", "peer", 37.5, calm, null)));
    ResultEvent result = new ResultEvent(ResultEvent.SCHEMA, "p", "rx", "rx_pps", "packets/s",
        new TreeMap<>(Map.of(1, 1e5, 2, 1.2e5)), 2, 1.1e5, 1.4e4, 1.3e5, List.of("sut"), List.of("r1", "r2"), 1L,
        "p-x", null, null, false, null, 2, null, null);
    TestReport rx = new TestReport(plan.tests().get(0), List.of(new RepetitionOutcome("r1", 1, null, 1, 2, -1, null),
        new RepetitionOutcome("r2", 2, null, 3, 4, -1, null)), List.of(result), null, List.of(), cpu,
        List.of("sut", "peer"));
    ExecutionReport report = new ExecutionReport("p", "p-x", 1000, Map.of(), List.of(rx));

    StringWriter table = new StringWriter();
    report.printTable(new PrintWriter(table));
    assertThat(table.toString()).contains("  rx repetition 1: FLAGGED: CPU saturated on sut: " + why + "; sut, peer are "
        + "the machine running netpulse (same kernel boot id): its own load was on their CPUs. CPU over the measuring "
        + "window: sut 64 % busy (max 74 %), busiest cpu1 99 % (max 100 %, softirq 81 %) over 8 s; peer 38 % busy "
        + "(max 48 %), busiest cpu1 45 % (max 52 %, softirq 3 %) over 8 s\n");
    assertThat(table.toString()).contains("  rx repetition 2: FLAGGED: sut, peer are the machine running netpulse");

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> reps = (List<Map<String, Object>>) report.json().get(0).get("repetitions");
    assertThat(reps.get(0).get("flags")).isEqualTo(List.of("cpu_saturated", "shared_with_netpulse"));
    assertThat(reps.get(1).get("flags")).isEqualTo(List.of("shared_with_netpulse"));
    assertThat(reps.get(0).get("sharedWithNetpulse")).isEqualTo(List.of("sut", "peer"));
    @SuppressWarnings("unchecked")
    Map<String, Object> sut = ((List<Map<String, Object>>) reps.get(0).get("cpu")).get(0);
    assertThat(sut).containsEntry("host", "sut").containsEntry("busyMeanPct", 64.2).containsEntry("saturated", true)
        .containsEntry("saturation", why).containsEntry("seconds", 8);
    assertThat(sut.get("busiestCpu")).isEqualTo(Map.of("cpu", "cpu1", "busyMeanPct", 98.5, "busyMaxPct", 100.0,
        "softirqMeanPct", 81.2, "stealMeanPct", 0.0, "secondsAtLimit", 8));
  }

  @Test
  void noFiguresAndNoSharedHostsSayNothing() throws Exception {
    assertThat(CpuNotes.note(List.of(), List.of())).isNull();
    assertThat(CpuNotes.flags(List.of(), null)).isEmpty();
  }
}
