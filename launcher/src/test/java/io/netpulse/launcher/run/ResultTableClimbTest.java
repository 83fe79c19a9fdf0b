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

/** The run's table and JSON say what ended each repetition's climb, and whose limit that was. */
@Tag("unit")
class ResultTableClimbTest {

  @Test
  void tableNoteAndJsonCarryTheClimb() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests: [ { type: concurrent_connections, name: cc }, { type: latency } ]
        """);
    RunEvent.Climb sut = new RunEvent.Climb("sut_open_files", "sut", "sut (server): open files on the SUT at 19950");
    RunEvent.Climb client = new RunEvent.Climb("client_ports", "client", "peer: client ports exhausted at 28232");
    TreeMap<Integer, Double> values = new TreeMap<>(Map.of(1, 19_953.0, 2, 28_233.0));
    ResultEvent result = new ResultEvent(ResultEvent.SCHEMA, "p", "cc", "tcp_estab", "connections", values, 2,
        24_093.0, 5855.0, 52_600.0, List.of("sut"), List.of("r1", "r2"), 1L, "p-x", null, null, false, null, 2, null, null);
    TestReport cc = new TestReport(plan.tests().get(0), List.of(new RepetitionOutcome("r1", 1, null, 1, 2, -1, sut),
        new RepetitionOutcome("r2", 2, null, 3, 4, -1, client)), List.of(result), null, List.of());
    TestReport latency = new TestReport(plan.tests().get(1),
        List.of(new RepetitionOutcome("r3", 1, "host sut: qperf failed", 0, 0, -1, null)), List.of(), null, List.of());
    ExecutionReport report = new ExecutionReport("p", "p-x", 1000, Map.of(), List.of(cc, latency));

    StringWriter table = new StringWriter();
    report.printTable(new PrintWriter(table));
    assertThat(table.toString())
        .contains("  cc repetition 1: climb ended by open files on the SUT (the SUT's limit): sut (server): open files "
            + "on the SUT at 19950\n")
        .contains("  cc repetition 2: climb ended by client ports exhausted (the client's limit, not the SUT's): "
            + "peer: client ports exhausted at 28232\n")
        .doesNotContain("latency repetition 1: climb");

    List<Map<String, Object>> json = report.json();
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> reps = (List<Map<String, Object>>) json.get(0).get("repetitions");
    assertThat(reps.get(0).get("climb")).isEqualTo(Map.of("endedBy", "sut_open_files", "side", "sut", "detail",
        "sut (server): open files on the SUT at 19950"));
    assertThat(reps.get(1).get("climb")).isEqualTo(Map.of("endedBy", "client_ports", "side", "client", "detail",
        "peer: client ports exhausted at 28232"));
  }
}
