package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

/** Beside an exact bit rate read from sar, on request, the figure as the seeds compute it (kB taken as 1000 B). */
@Tag("unit")
class SeedFiguresTest {

  private static ResultEvent result(String test, String metric, String unit, double r1, double r2) {
    return new ResultEvent(ResultEvent.SCHEMA, "p", test, metric, unit, new TreeMap<>(Map.of(1, r1, 2, r2)), 2,
        (r1 + r2) / 2, Math.abs(r1 - r2) / Math.sqrt(2), 10_000.0, List.of("sut"), List.of("r1", "r2"), 0L, "e", null,
            null, false, null, 2, null, null);
  }

  private static ExecutionReport report() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests:
          - { type: rx_bandwidth }
          - { type: iperf_bandwidth }
          - { type: rx_pps }
        """);
    List<RepetitionOutcome> reps = List.of(new RepetitionOutcome("r1", 1, null, 1, 2, -1, null),
        new RepetitionOutcome("r2", 2, null, 3, 4, -1, null));
    return new ExecutionReport("p", "e", 1000, Map.of(), List.of(
        new TestReport(plan.tests().get(0), reps, List.of(result("rx_bandwidth", "rx_bps", "bit/s", 8.192e9, 8.192e8)),
            null, List.of()),
        new TestReport(plan.tests().get(1), reps, List.of(result("iperf_bandwidth", "rx_bps", "bit/s", 1.024e9, 1.024e9),
            result("iperf_bandwidth", "sender_bps", "bit/s", 1e9, 1e9)), null, List.of()),
        new TestReport(plan.tests().get(2), reps, List.of(result("rx_pps", "rx_pps", "packets/s", 1e6, 1e6)), null,
            List.of())));
  }

  @Test
  void sarBitRatesGetTheSeedsFigureAndNothingElseDoes() throws Exception {
    ResultEvent exact = result("rx_bandwidth", "rx_bps", "bit/s", 8.192e9, 8.192e8);
    ResultEvent seeds = SeedFigures.of("rx_bandwidth", exact).orElseThrow();
    // sar's rxkB/s of 1,000,000: exact 8.192 Gbit/s, the seeds' "temp/1000000*8" 8 Gbit/s
    assertThat(seeds.values()).containsExactly(Map.entry(1, 8.0e9), Map.entry(2, 8.0e8));
    assertThat(seeds.metric()).isEqualTo("rx_bps_as_seeds");
    assertThat(seeds.unit()).isEqualTo("bit/s");
    assertThat(seeds.mean()).isCloseTo(exact.mean() * 0.9765625, within(1e-3));
    assertThat(seeds.ci95()).isCloseTo(9765.625, within(1e-9));
    assertThat(1 - seeds.mean() / exact.mean()).isCloseTo(0.0234, within(0.0001)); // 2.34 % lower
    assertThat(SeedFigures.of("tx_bandwidth", result("t", "tx_bps", "bit/s", 1, 1))).isPresent();
    assertThat(SeedFigures.of("iperf_bandwidth", result("t", "rx_bps", "bit/s", 1, 1))).isPresent();
    // iperf's own rate, packet rates and latencies are what the seeds compute too
    assertThat(SeedFigures.of("iperf_bandwidth", result("t", "sender_bps", "bit/s", 1, 1))).isEmpty();
    assertThat(SeedFigures.of("rx_pps", result("t", "rx_pps", "packets/s", 1, 1))).isEmpty();
    assertThat(SeedFigures.of("udp_stream", result("t", "recv_bps", "bit/s", 1, 1))).isEmpty();
  }

  @Test
  void theTableShowsThemLabelledUnderTheExactRowOnlyWhenAsked() throws Exception {
    StringWriter plain = new StringWriter();
    report().printTable(new PrintWriter(plain));
    assertThat(plain.toString()).doesNotContain("as_seeds");
    StringWriter with = new StringWriter();
    report().printTable(new PrintWriter(with), true);
    List<String> lines = with.toString().lines().toList();
    int exact = lines.indexOf(lines.stream().filter(l -> l.startsWith("| rx_bandwidth    | rx_bps ")).findFirst()
        .orElseThrow());
    assertThat(lines.get(exact + 1).replaceAll(" +", " "))
        .isEqualTo("| rx_bandwidth | rx_bps_as_seeds | 8000000000 800000000 | 4400000000 | 9765.6 | bit/s | - |");
    assertThat(with.toString()).contains("| iperf_bandwidth | rx_bps_as_seeds |")
        .doesNotContain("sender_bps_as_seeds").doesNotContain("rx_pps_as_seeds");
    // the label, once
    assertThat(lines.stream().filter(l -> l.contains("rx_bps_as_seeds: rx_bps as seeds 000, 001 and 004 compute it, "
        + "sar kB/s × 8 × 1000 (kB taken as 1000 B; sysstat's kB is 1024 B), 2.34 % below rx_bps")).count()).isOne();
  }

  @Test
  void theJsonCarriesThemBesideTheExactFigureOnlyWhenAsked() throws Exception {
    assertThat(report().json()).noneMatch(m -> m.containsKey("asSeeds"));
    List<Map<String, Object>> json = report().json(true);
    @SuppressWarnings("unchecked")
    Map<String, Object> seeds = (Map<String, Object>) json.get(0).get("asSeeds");
    assertThat(seeds).containsEntry("metric", "rx_bps_as_seeds").containsEntry("unit", "bit/s")
        .containsEntry("runs", List.of(8.0e9, 8.0e8));
    assertThat((String) seeds.get("how")).contains("2.34 % below rx_bps");
    assertThat(json.get(0)).containsEntry("mean", 4.5056e9); // the exact figure stays what it was
    assertThat(json).filteredOn(m -> "sender_bps".equals(m.get("metric"))).allMatch(m -> !m.containsKey("asSeeds"));
  }
}
