package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time to result (issue 4): the same plan, every test type, run once with {@code stop: steady} and once with
 * {@code stop: fixed} through the real CLI on the namespace test hosts; prints per test and metric the two
 * means, their difference in % and the fixed runs' own 95 % CI in % (so noise can be told from a shift), and
 * the wall time of each suite. A measurement, not a regression test: its name keeps it out of surefire's
 * default includes; run it with
 * {@code mvn -B -o -pl cli -am test -Dtest=TimeToResultMeasurement -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>System properties: {@code ttr.scale} (default 1) multiplies every duration, e.g. 0.1 for a quick
 * check of the class itself; {@code ttr.order} (default {@code steady,fixed}) is the order of the suites;
 * {@code ttr.out} (default {@code target/time-to-result}) is where both JSON outputs and the table are kept.
 */
@Tag("measurement")
class TimeToResultMeasurement {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  /**
   * The seeds' durations scaled to a sixth (000: 180 s bandwidth/pps, 120 s concurrent, 60 s latency; 001/004:
   * 60 s high pps, 30 s sockperf; 000: 20 s CRR; 002: 300 s TCP_RR, which stops on the per-second sum of its
   * instances' interim lines like CRR, and 300 s iperf, which stops on sar and its per-second sum rows); seed 003's
   * 300 s UDP_STREAM is cut to 10 s, because it runs its full time in both modes and only adds the same time to
   * each suite. Sampled tests get the plan's 5 s warm-up on top.
   */
  static List<String> tests(double scale) {
    return List.of(
        "{ type: latency, duration: " + s(10, scale) + ", ping_count: " + Math.max(2, Math.round(10 * scale)) + " }",
        "{ type: sockperf_latency, duration: " + s(5, scale) + " }",
        "{ type: rx_bandwidth, streams: 4, duration: " + s(30, scale) + " }",
        "{ type: tx_bandwidth, streams: 4, duration: " + s(30, scale) + " }",
        "{ type: iperf_bandwidth, streams: 2, duration: " + s(50, scale) + " }",
        "{ type: rx_pps, tool: iperf3, streams: 2, duration: " + s(30, scale) + " }",
        "{ type: tx_pps, tool: netperf, streams: 2, duration: " + s(30, scale) + " }",
        "{ type: high_pps, senders: [peer], streams: 2, duration: " + s(10, scale) + " }",
        "{ type: new_connections, streams: 4, duration: " + s(5, scale) + " }",
        "{ type: concurrent_connections, target: 5000, listeners: 4, clients: [peer], duration: " + s(20, scale) + " }",
        "{ type: tcp_rr, streams: 8, duration: " + s(50, scale) + " }",
        "{ type: udp_stream, clients: [peer], duration: " + s(10, scale) + " }");
  }

  private static String s(int seconds, double scale) {
    return Math.max(2, Math.round(seconds * scale)) + "s";
  }

  static String header(String stop) {
    return String.join("\n", "repetitions: 3", "stop: " + stop, "warmup: 5s",
        "steady: { criterion: spread, window: 5s, spread: 5, rise: 0.5 }", "prepare: { nofile: 16384 }");
  }

  /** One suite's outcome: wall time and the JSON entries keyed test/metric. */
  record Suite(String stop, long wallMillis, Map<String, JsonNode> byMetric, String stdout, int exit, String stderr) {}

  /**
   * Runs {@code plan} through the CLI and keeps its output, stderr and plan under {@code out} as {@code STOP.json},
   * {@code STOP.stderr.txt} and {@code STOP.yaml} before anything is asserted: the figures of an hour's run are never
   * lost to a later failure.
   */
  static Suite runSuite(String stop, Path plan, Path out) throws Exception {
    Instant began = Instant.now();
    long start = System.nanoTime();
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan);
    long wall = (System.nanoTime() - start) / 1_000_000;
    Files.writeString(out.resolve(stop + ".json"), run.stdout());
    Files.writeString(out.resolve(stop + ".stderr.txt"), run.stderr());
    Files.copy(plan, out.resolve(stop + ".yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    System.out.printf(Locale.ROOT, "%s suite: %s to %s, %.1f s, exit %d%n", stop, began, Instant.now(), wall / 1000.0,
        run.exit());
    return new Suite(stop, wall, byMetric(run.stdout()), run.stdout(), run.exit(), run.stderr());
  }

  @Test
  void steadyStopGivesTheFixedResultsInLessTime() throws Exception {
    double scale = Double.parseDouble(System.getProperty("ttr.scale", "1"));
    List<String> order = List.of(System.getProperty("ttr.order", "steady,fixed").split(","));
    Path out = Path.of(System.getProperty("ttr.out", "target/time-to-result")).toAbsolutePath();
    Files.createDirectories(out);
    Map<String, Suite> suites = new LinkedHashMap<>();
    for (String stop : order) {
      Path planDir = Files.createDirectories(dir.resolve(stop));
      Suite suite = runSuite(stop, TestPlans.write(planDir, HOSTS, "ttr-" + stop, header(stop),
          tests(scale).toArray(String[]::new)), out);
      assertThat(suite.exit()).as(stop + " suite exit; stderr:\n" + suite.stderr()).isZero();
      suites.put(stop, suite);
    }
    Suite steady = suites.get("steady");
    Suite fixed = suites.get("fixed");
    String table = table(steady, fixed, String.format(Locale.ROOT,
        "Time to result, %s, scale %s, repetitions 3, steady window 5s spread 5%% rise 0.5%%", Instant.now(), scale));
    System.out.println(table);
    Files.writeString(out.resolve("table.md"), table);

    assertThat(fixed.byMetric()).as("fixed results").hasSizeGreaterThanOrEqualTo(tests(scale).size());
    assertThat(steady.byMetric().keySet()).as("the same metrics in both suites")
        .containsExactlyInAnyOrderElementsOf(fixed.byMetric().keySet());
    for (Suite suite : List.of(steady, fixed)) {
      suite.byMetric().forEach((key, r) -> {
        assertThat(r.has("error")).as(suite.stop() + " " + key + ": " + r).isFalse();
        assertThat(r.path("runs")).as(suite.stop() + " " + key + " repetitions").hasSize(3);
        assertThat(r.path("mean").asDouble()).as(suite.stop() + " " + key + " mean").isPositive();
      });
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** Result entries keyed {@code test/metric}; an error entry is keyed {@code test/error}. */
  static Map<String, JsonNode> byMetric(String stdout) throws Exception {
    Map<String, JsonNode> by = new LinkedHashMap<>();
    for (JsonNode r : Json.mapper().readTree(stdout)) {
      by.put(r.path("test").asText() + "/" + (r.has("error") ? "error" : r.path("metric").asText()), r);
    }
    return by;
  }

  /** The per-metric comparison of the two suites and their wall times, under {@code title}. */
  static String table(Suite steady, Suite fixed, String title) {
    StringBuilder t = new StringBuilder();
    t.append(title).append("\n\n");
    t.append("| test / metric | unit | steady mean | fixed mean | steady − fixed | fixed 95 % CI | steady 95 % CI |\n");
    t.append("|---|---|---:|---:|---:|---:|---:|\n");
    List<Double> diffs = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : fixed.byMetric().entrySet()) {
      JsonNode f = e.getValue();
      JsonNode s = steady.byMetric().get(e.getKey());
      if (s == null || f.has("error") || s.has("error")) {
        t.append("| ").append(e.getKey()).append(" | | missing or failed | | | | |\n");
        continue;
      }
      double fm = f.path("mean").asDouble();
      double sm = s.path("mean").asDouble();
      double diff = (sm - fm) / fm * 100;
      diffs.add(Math.abs(diff));
      t.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %+.2f %% | ±%.2f %% | ±%.2f %% |%n", e.getKey(),
          f.path("unit").asText(), num(sm), num(fm), diff, ci(f), ci(s)));
    }
    t.append(String.format(Locale.ROOT, "%nwall time: steady %.1f s, fixed %.1f s, ratio %.3f; largest |difference| %.2f %%%n",
        steady.wallMillis() / 1000.0, fixed.wallMillis() / 1000.0, (double) steady.wallMillis() / fixed.wallMillis(),
        diffs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)));
    return t.toString();
  }

  /** The 95 % CI half-width as % of the mean. */
  private static double ci(JsonNode r) {
    return r.path("ci95").asDouble() / r.path("mean").asDouble() * 100;
  }

  private static String num(double v) {
    return Math.abs(v) >= 1e5 ? String.format(Locale.ROOT, "%.4g", v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
