package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
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

/** The run's table and JSON say why each repetition's measuring ended and the precision its value has. */
@Tag("unit")
class ResultTableStopsTest {

  @Test
  void tableColumnAndJsonCarryEachRepetitionsStop() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: rx_pps, tool: iperf3 }, { type: latency } ]
        """);
    TreeMap<Integer, Double> values = new TreeMap<>(Map.of(1, 47_180.0, 2, 47_190.0, 3, 47_170.0));
    TreeMap<Integer, ResultEvent.Stop> stops = new TreeMap<>(Map.of(
        1, new ResultEvent.Stop(RunEvent.STOP_PRECISE, 0.0041),
        2, new ResultEvent.Stop(RunEvent.STOP_DURATION, 0.019),
        3, new ResultEvent.Stop(RunEvent.STOP_PRECISE, 0.005)));
    ResultEvent pps = new ResultEvent(ResultEvent.SCHEMA, "p", "rx_pps", "rx_pps", "packets/s", values, 3, 47_180.0,
        10.0, 24.8, List.of("sut"), List.of("r1", "r2", "r3"), 1L, "p-x", null, null, true, 3, 3, null, stops);
    ResultEvent rtt = new ResultEvent(ResultEvent.SCHEMA, "p", "latency", "rtt_avg", "ms", new TreeMap<>(Map.of(1,
        0.05)), 1, 0.05, null, null, List.of("sut"), List.of("r4"), 1L, "p-x", null, null, true, 1, 1, null, null);
    ExecutionReport report = new ExecutionReport("p", "p-x", 1000, Map.of(), List.of(
        new TestReport(plan.tests().get(0), List.of(), List.of(pps), null, List.of()),
        new TestReport(plan.tests().get(1), List.of(), List.of(rtt), null, List.of())));

    StringWriter table = new StringWriter();
    report.printTable(new PrintWriter(table));
    String text = table.toString();
    assertThat(text).containsPattern("\\| test +\\| metric +\\| runs +\\| mean +\\| ± ci95 +\\| unit +\\| stop +\\|");
    // per reason in the repetitions' order, the widest half-width among its repetitions
    assertThat(text).containsPattern("\\| rx_pps +\\| rx_pps .*\\| packets/s \\| precise ±0.50 %, duration ±1.90 % \\|");
    assertThat(text).containsPattern("\\| latency +\\| rtt_avg .*\\| ms +\\| - +\\|");

    List<Map<String, Object>> json = report.json();
    assertThat(json.get(0).get("stops")).isEqualTo(List.of(
        Map.of("repetition", 1, "reason", "precise", "precision", 0.0041),
        Map.of("repetition", 2, "reason", "duration", "precision", 0.019),
        Map.of("repetition", 3, "reason", "precise", "precision", 0.005)));
    assertThat(json.get(1).get("stops")).isEqualTo(List.of());
  }
}
