package io.netpulse.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A concurrent-connections repetition's climb, from its DONE event to the Markdown and HTML reports. */
@Tag("unit")
class ClimbInReportTest {

  private static final RunEvent.Climb CLIMB = new RunEvent.Climb("client_ports", "client",
      "peer: client ports exhausted at 4000: the kernel's source address used its 1000 local ports");

  @Test
  void theDoneEventsClimbReachesBothReports() {
    RunLifecycles lifecycles = new RunLifecycles();
    String run = "p-20261130T120000Z-t1-r1";
    long t = 1_800_000_000_000L;
    lifecycles.add(event(run, Phase.MEASURING, t, null));
    lifecycles.add(event(run, Phase.STOPPING, t + 10_000, null));
    lifecycles.add(event(run, Phase.DONE, t + 11_000, CLIMB));
    Repetition rep = lifecycles.repetition(run).orElseThrow();
    assertThat(rep.climb()).isEqualTo(CLIMB);
    assertThat(rep.measuringMillis()).isEqualTo(10_000);

    TreeMap<Integer, Double> values = new TreeMap<>();
    values.put(1, 4003.0);
    ResultEvent result = new ResultEvent(ResultEvent.SCHEMA, "p", "cc", "tcp_estab", "connections", values, 1,
        4003.0, null, null, List.of("sut"), List.of(run), t + 10_000, "p-20261130T120000Z", null, null, false, null, 1,
            null, null);
    PlanReport report = new PlanReport("p", "netpulse.results", t + 20_000, List.of(new MetricSection(result,
        "concurrent_connections", "tcp_estab", "connections", List.of(rep), List.of())));
    StringWriter md = new StringWriter();
    MarkdownReport.write(report, new PrintWriter(md));
    assertThat(md.toString()).contains("| DONE; climb ended by client ports exhausted (the client's limit, not the "
        + "SUT's): peer: client ports exhausted at 4000: the kernel's source address used its 1000 local ports |");
    StringWriter html = new StringWriter();
    HtmlReport.write(report, new PrintWriter(html));
    assertThat(html.toString()).contains("<p class=\"meta climb\">repetition 1: climb ended by client ports "
        + "exhausted (the client&#39;s limit, not the SUT&#39;s): peer: client ports exhausted at 4000: the "
        + "kernel&#39;s source address used its 1000 local ports</p>");
  }

  private static RunEvent event(String run, Phase phase, long ts, RunEvent.Climb climb) {
    return RunEvent.ofRepetition(run, "p", "cc", 1, phase, ts, null, "concurrent_connections", "sut", null)
        .inExecution("p-20261130T120000Z", null).withClimb(climb);
  }
}
