package io.netpulse.launcher.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse compare} of files as {@code netpulse run --format json} prints them: the verdicts, the formats, the
 * gate's exit codes and one-line errors for files it cannot use. Figures checked against SciPy 1.17
 * ({@code ttest_ind(a, b, equal_var=False)}).
 */
@Tag("unit")
class CompareCommandTest {

  @TempDir Path dir;

  /** One entry of run's JSON output (the fields compare reads, and some it does not). */
  private static String entry(String test, String type, String metric, String unit, double... runs) {
    StringBuilder values = new StringBuilder();
    StringBuilder reps = new StringBuilder();
    for (int i = 0; i < runs.length; i++) {
      values.append(i == 0 ? "" : ",").append(runs[i]);
      reps.append(i == 0 ? "" : ",").append("{\"repetition\":").append(i + 1).append(",\"run\":\"r").append(i + 1)
          .append("\",\"failure\":null}");
    }
    return "{\"test\":\"" + test + "\",\"type\":\"" + type + "\",\"metric\":\"" + metric + "\",\"unit\":\"" + unit
        + "\",\"runs\":[" + values + "],\"mean\":0,\"n\":" + runs.length + ",\"hosts\":[\"sut\"],\"repetitions\":["
        + reps + "]}";
  }

  private Path file(String name, String... entries) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, "[" + String.join(",", entries) + "]");
    return f;
  }

  /** A baseline, and B: bandwidth twice it, latency the same within noise, pps with one repetition. */
  private Path[] pair() throws Exception {
    Path a = file("a.json",
        entry("rx_bandwidth", "rx_bandwidth", "rx_bps", "bit/s", 19.1e6, 20.3e6, 18.7e6),
        entry("latency", "latency", "rtt_avg_ms", "ms", 0.081, 0.072, 0.090),
        entry("rx_pps", "rx_pps", "rx_pps", "packets/s", 9400, 9380, 9420),
        entry("only_a", "tcp_rr", "trans_per_s", "transactions/s", 1, 2),
        "{\"test\":\"broken\",\"type\":\"tcp_rr\",\"error\":\"host unreachable\"}");
    Path b = file("b.json",
        entry("rx_bandwidth", "rx_bandwidth", "rx_bps", "bit/s", 39.2e6, 40.1e6, 38.8e6),
        entry("latency", "latency", "rtt_avg_ms", "ms", 0.079, 0.085, 0.070),
        entry("rx_pps", "rx_pps", "rx_pps", "packets/s", 18800));
    return new Path[] {a, b};
  }

  @Test
  void textSaysBetterWithRatioAndPAndNoDifferenceForOverlappingLatency() throws Exception {
    Path[] f = pair();
    CliRun r = CliRun.of("compare", f[0].toString(), f[1].toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("A: execution unknown (" + f[0] + ")", "B: execution unknown (" + f[1] + ")");
    // SciPy: p = 8.353901307370017e-06 (below 0.0001), ratio 39.3667e6 / 19.3667e6 = 2.033
    assertThat(r.out()).containsPattern("rx_bandwidth +rx_bps +bit/s +19366666\\.7 ± 2068458\\.0 \\(3\\) +39366666\\.7 "
        + "± \\d+\\.\\d \\(3\\) +2\\.033 +<0\\.0001 +better \\(higher is better\\)");
    // SciPy: p = 0.6817723901309605
    assertThat(r.out()).containsPattern("latency +rtt_avg_ms +ms .* 0\\.6818 +no significant difference "
        + "\\(lower is better\\)");
    assertThat(r.out()).containsPattern("rx_pps +rx_pps +packets/s .* 18800 \\(1\\) +2\\.000 +- +not enough "
        + "repetitions");
    assertThat(r.out()).contains("only in A (not compared): only_a/trans_per_s");
    assertThat(r.out()).doesNotContain("broken");
  }

  @Test
  void markdownIsATableWithEscapedCells() throws Exception {
    Path a = file("a|b.json", entry("rx|bw", "rx_bandwidth", "rx_bps", "bit/s", 1, 2, 3));
    Path b = file("b.json", entry("rx|bw", "rx_bandwidth", "rx_bps", "bit/s", 1, 2, 3));
    CliRun r = CliRun.of("compare", a.toString(), b.toString(), "--format", "md");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    // the old name, as report's --format says md: the same table and one warning line
    CliRun old = CliRun.of("compare", a.toString(), b.toString(), "--format", "markdown");
    assertThat(old.out()).isEqualTo(r.out());
    assertThat(old.err().strip()).isEqualTo("netpulse compare: warning: --format markdown is deprecated and will be "
        + "removed in the next release; use --format md");
    assertThat(r.out()).contains("| test | metric | unit | A mean ± ci95 (n) | B mean ± ci95 (n) | B/A | p | verdict |");
    assertThat(r.out()).contains("| rx\\|bw | rx_bps | bit/s | 2 ± 2.484 (3) | 2 ± 2.484 (3) | 1.000 | 1.0000 "
        + "| no significant difference (higher is better) |");
    assertThat(r.out()).contains("a\\|b.json");
  }

  @Test
  void jsonCarriesEveryFigure() throws Exception {
    Path[] f = pair();
    CliRun r = CliRun.of("compare", f[0].toString(), f[1].toString(), "--format", "json", "--fail-on-regression",
        "5");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode j = Json.mapper().readTree(r.out());
    assertThat(j.path("alpha").asDouble()).isEqualTo(0.05);
    assertThat(j.path("failOnRegressionPct").asDouble()).isEqualTo(5);
    assertThat(j.path("regressions")).isEmpty();
    assertThat(j.path("onlyInA").get(0).asText()).isEqualTo("only_a/trans_per_s");
    JsonNode bw = j.path("comparisons").get(0);
    assertThat(bw.path("metric").asText()).isEqualTo("rx_bps");
    assertThat(bw.path("direction").asText()).isEqualTo("higher_is_better");
    assertThat(bw.path("p").asDouble()).isCloseTo(8.353901307370017e-06, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(bw.path("df").asDouble()).isCloseTo(3.815431562023201, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(bw.path("a").path("ci95").asDouble()).isCloseTo(2068458.005016906,
        org.assertj.core.api.Assertions.within(1e-3));
    assertThat(bw.path("verdict").asText()).isEqualTo("better");
    assertThat(bw.path("regression").asBoolean()).isFalse();
    JsonNode pps = j.path("comparisons").get(2);
    assertThat(pps.path("verdict").asText()).isEqualTo("not enough repetitions");
    assertThat(pps.path("p").isNull()).isTrue();
  }

  @Test
  void failOnRegressionExitsOneOnlyWhenSignificantlyWorseByMoreThanTheThreshold() throws Exception {
    Path[] f = pair();
    CliRun swapped = CliRun.of("compare", f[1].toString(), f[0].toString(), "--fail-on-regression", "10");
    assertThat(swapped.exit()).as(swapped.err()).isEqualTo(1);
    assertThat(swapped.out()).contains("REGRESSION: significantly worse by more than 10 %: rx_bandwidth/rx_bps -50.8 %");
    assertThat(swapped.err()).isEmpty();
    // worse by 50.8 %: not beyond 60
    assertThat(CliRun.of("compare", f[1].toString(), f[0].toString(), "--fail-on-regression", "60").exit()).isZero();
    // without the option the comparison only reports
    assertThat(CliRun.of("compare", f[1].toString(), f[0].toString()).exit()).isZero();
    // latency up 8 % but not significant: no gate
    Path lat1 = file("l1.json", entry("latency", "latency", "rtt_avg_ms", "ms", 0.081, 0.072, 0.090));
    Path lat2 = file("l2.json", entry("latency", "latency", "rtt_avg_ms", "ms", 0.089, 0.078, 0.097));
    assertThat(CliRun.of("compare", lat1.toString(), lat2.toString(), "--fail-on-regression", "1").exit()).isZero();
    // latency up 2x and significant: lower is better, so a regression
    Path lat3 = file("l3.json", entry("latency", "latency", "rtt_avg_ms", "ms", 0.162, 0.150, 0.170));
    CliRun slower = CliRun.of("compare", lat1.toString(), lat3.toString(), "--fail-on-regression", "10");
    assertThat(slower.exit()).isEqualTo(1);
    assertThat(slower.out()).contains("worse (lower is better)");
  }

  @Test
  void filesItCannotUseAreOneLineNamingTheFileAndExitTwo() throws Exception {
    Path good = pair()[0];
    Path notJson = dir.resolve("notes.json");
    Files.writeString(notJson, "rx_bps went up\n");
    Path object = dir.resolve("object.json");
    Files.writeString(object, "{\"plan\":\"p\"}");
    Path noRuns = dir.resolve("noruns.json");
    Files.writeString(noRuns, "[{\"test\":\"t\",\"metric\":\"m\"}]");
    Path empty = dir.resolve("empty.json");
    Files.writeString(empty, "");
    Path otherArchive = dir.resolve("future.json");
    Files.writeString(otherArchive, "{\"format\":\"netpulse-archive\",\"schema\":99}");
    Path disjoint = file("disjoint.json", entry("x", "tcp_rr", "trans_per_s", "transactions/s", 1, 2));
    String[][] cases = {
        {dir.resolve("missing.json").toString(), "missing.json: no such file"},
        {notJson.toString(), "notes.json: not JSON (line 1, column"},
        {object.toString(), "object.json: neither a netpulse archive (netpulse export) nor the output of"},
        {noRuns.toString(), "noruns.json: entry 1 (t/m) has no \"runs\" array"},
        {empty.toString(), "empty.json: empty file, expected JSON"},
        {otherArchive.toString(), "future.json: archive schema 99 is not one this netpulse reads"},
        {dir.toString(), dir + ": cannot read it"},
        {disjoint.toString(), "have no test and metric in common"}};
    for (String[] c : cases) {
      CliRun r = CliRun.of("compare", good.toString(), c[0]);
      assertThat(r.exit()).as(c[0] + ": " + r.err()).isEqualTo(2);
      assertThat(r.err()).as(c[0]).contains(c[1]);
      assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
      assertThat(r.err()).doesNotContain("Exception", "\tat ");
    }
    CliRun bad = CliRun.of("compare", good.toString(), good.toString(), "--fail-on-regression", "-3");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--fail-on-regression must be a percentage ≥ 0, got -3.0");
  }

  @Test
  void helpHasExamples() {
    CliRun r = CliRun.of("compare", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("Examples:", "--fail-on-regression", "text, md (Markdown) or json", "KEY=VALUE");
  }
}
