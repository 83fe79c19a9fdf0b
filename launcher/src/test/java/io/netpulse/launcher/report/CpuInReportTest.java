package io.netpulse.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A repetition's hosts' CPU use (from {@code cpu}) and its flags (the run events' hosts that are netpulse's machine)
 * reach the Markdown and HTML reports.
 */
@Tag("unit")
class CpuInReportTest {

  private static final String RUN = "p-20261201T100000Z-t1-r1";
  private static final long T = 1_800_000_000_000L;

  private static CpuUse use(String host, double allMean, boolean saturated) {
    CpuUse.Cpu all = new CpuUse.Cpu("all", allMean, allMean + 5, 30, 0, 0);
    CpuUse.Cpu cpu0 = new CpuUse.Cpu("cpu0", allMean, allMean + 5, 30, 0, saturated ? 9 : 0);
    return new CpuUse(CpuUse.SCHEMA, RUN, "p", "rx", 1, "p-20261201T100000Z", host, T, T + 10_000, 9, all, cpu0,
        List.of(cpu0), saturated, saturated ? "cpu0 at least 95 % busy in 9 of 9 s (softirq 30.0 %, steal 0.0 % of "
            + "its time)" : null);
  }

  @Test
  void theRepetitionsCpuAndFlagsReachBothReports() {
    RunLifecycles lifecycles = new RunLifecycles();
    List<String> shared = List.of("sut", "peer");
    lifecycles.add(event(Phase.MEASURING, T, shared));
    lifecycles.add(event(Phase.STOPPING, T + 10_000, shared));
    lifecycles.add(event(Phase.DONE, T + 11_000, shared));
    lifecycles.add(use("peer", 20, false));
    lifecycles.add(use("sut", 60, false));
    lifecycles.add(use("sut", 97, true)); // a late sample corrected it: the latest counts
    Repetition rep = lifecycles.repetition(RUN).orElseThrow();
    assertThat(rep.sharedWithNetpulse()).isEqualTo(shared);
    assertThat(rep.cpu()).extracting(CpuUse::host).containsExactly("sut", "peer"); // the SUT first
    assertThat(rep.cpu().get(0).saturated()).isTrue();

    TreeMap<Integer, Double> values = new TreeMap<>();
    values.put(1, 1e5);
    ResultEvent result = new ResultEvent(ResultEvent.SCHEMA, "p", "rx", "rx_pps", "packets/s", values, 1, 1e5, null,
        null, List.of("sut"), List.of(RUN), T + 10_000, "p-20261201T100000Z", null, null, false, null, 1, null, null);
    PlanReport report = new PlanReport("p", "netpulse.results", T + 20_000, List.of(new MetricSection(result,
        "rx_pps", "rx_pps", "packets/s", List.of(rep), List.of())));
    StringWriter md = new StringWriter();
    MarkdownReport.write(report, new PrintWriter(md));
    assertThat(md.toString())
        .contains("| outcome | CPU and flags |")
        .contains("| DONE | FLAGGED: CPU saturated on sut: cpu0 at least 95 % busy in 9 of 9 s (softirq 30.0 %, steal "
            + "0.0 % of its time); sut, peer are the machine running netpulse (same kernel boot id): its own load was on "
            + "their CPUs. CPU over the measuring window: sut 97 % busy (max 102 %) over 9 s; peer 20 % busy (max 25 %) "
            + "over 9 s |");
    StringWriter html = new StringWriter();
    HtmlReport.write(report, new PrintWriter(html));
    assertThat(html.toString()).contains("<p class=\"meta cpu flagged\">repetition 1: FLAGGED: CPU saturated on sut");

    // a run from before netpulse recorded CPU: no note, a dash in the table
    RunLifecycles older = new RunLifecycles();
    older.add(RunEvent.ofRepetition(RUN, "p", "rx", 1, Phase.MEASURING, T, null, "rx_pps", "sut", "eth0"));
    older.add(RunEvent.ofRepetition(RUN, "p", "rx", 1, Phase.DONE, T + 10_000, null, "rx_pps", "sut", "eth0"));
    assertThat(older.repetition(RUN).orElseThrow().cpuNote()).isNull();
  }

  private static RunEvent event(Phase phase, long ts, List<String> shared) {
    return RunEvent.ofRepetition(RUN, "p", "rx", 1, phase, ts, null, "rx_pps", "sut", "eth0")
        .inExecution("p-20261201T100000Z", null).withSharedWithNetpulse(shared);
  }
}
