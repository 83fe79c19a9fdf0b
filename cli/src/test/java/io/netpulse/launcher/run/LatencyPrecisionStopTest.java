package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.event.LineEvent;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's latency test with {@code qperf_loop: true}, {@code stop: steady} and the precision criterion, on the
 * namespace test hosts with real qperf and ping: tcp_lat and udp_lat each run as a loop of 1-s tests in a stage of
 * their own, each stopped when the processor reports its mean precise, then ping runs its count. Each latency is
 * checked against the loop's lines read back from {@code lines} and reduced by hand as qperf reduces a run (its time
 * over its messages: one second over the mean of the 1-s message rates), and each metric says why it stopped.
 *
 * <p>The plan's precision is loose (±50 %): per-second latencies between namespaces on two shared cores swing by tens
 * of percent, and what is checked here is that each stage stops on its own verdict and is valued right, not how
 * precise these hosts can be.
 */
@Tag("measurement")
class LatencyPrecisionStopTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  /** Each qperf loop's planned seconds: what a stage takes when it is not stopped. */
  private static final int DURATION_S = 40;
  private static final Pattern LATENCY = Pattern.compile("latency\\s*=\\s*(\\S+) us");

  @TempDir Path dir;

  @Test
  void eachQperfStageStopsWhenPreciseAndIsValuedAsQperfValuesARun() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "latency-precise", """
        repetitions: 1
        stop: steady
        warmup: 1s
        steady: { precision: 50%, min_measure: 5s }""",
        "{ type: latency, duration: " + DURATION_S + "s, ping_count: 3, qperf_loop: true }");
    SharedPipeline pipeline = SharedPipeline.get();
    long t0 = System.nanoTime();
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan, pipeline.runArgs());
    long wallS = (System.nanoTime() - t0) / 1_000_000_000L;
    assertThat(run.exit()).as(run.stderr()).isZero();
    Map<String, JsonNode> results = run.byTypeAndMetric();
    System.err.println("LATENCY-PRECISE " + wallS + " s wall; " + run.stderr().lines()
        .filter(l -> l.contains("precise after")).toList());

    String runId = results.get("latency/tcp_lat_us").path("runIds").get(0).asText();
    List<LineEvent> lines = TopicReader.lines(pipeline.bootstrapServers(), List.of(runId));
    TopicReader.Window w = TopicReader.windows(pipeline.bootstrapServers(), List.of(runId)).get(runId);
    for (String test : List.of("tcp_lat", "udp_lat")) {
      JsonNode r = results.get("latency/" + test + "_us");
      assertThat(r).as(test + " in " + run.stdout()).isNotNull();
      JsonNode stop = r.path("stops").get(0);
      // each stage stopped on its own verdict, well before its planned 40 one-second tests
      assertThat(stop.path("reason").asText()).as(test + ": " + r).isEqualTo("precise");
      assertThat(stop.path("precision").asDouble()).as(test).isPositive().isLessThanOrEqualTo(0.5 * 1.5);
      List<double[]> seconds = seconds(lines, "qperf-" + test);
      assertThat(seconds.size()).as(test + " seconds streamed").isBetween(5, DURATION_S - 10);
      double byHand = harmonicMean(seconds, w.startMs());
      double netpulse = r.path("runs").get(0).asDouble();
      System.err.printf(Locale.ROOT, "LATENCY-PRECISE %s: netpulse %.2f us, by hand %.2f us, %s ±%.1f %%, "
          + "seconds %s%n", test, netpulse, byHand, stop.path("reason").asText(),
          stop.path("precision").asDouble() * 100, seconds.stream().map(s -> String.valueOf(s[1])).toList());
      // the receive times date the lines: the processor weighs each by the time since the one before, by hand each
      // counts once, so close rather than equal
      assertThat(netpulse).as(test).isCloseTo(byHand, org.assertj.core.data.Percentage.withPercentage(5));
    }
    JsonNode ping = results.get("latency/rtt_avg_ms");
    assertThat(ping.path("stops").get(0).path("reason").asText()).as("ping ran its count").isEqualTo("duration");
    assertThat(ping.path("runs").get(0).asDouble()).isPositive();
    // two stopped stages and 3 pings, against 2 × 40 s + 3 s planned
    long measured = w.endMs() - w.startMs();
    assertThat(measured).as("measuring window, ms").isLessThan((2L * DURATION_S) * 1000 * 3 / 4);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** Each streamed 1-s test of {@code source}: {arrival ms, latency us}. */
  private static List<double[]> seconds(List<LineEvent> lines, String source) {
    List<double[]> out = new ArrayList<>();
    for (LineEvent l : lines) {
      Matcher m = LATENCY.matcher(l.line());
      if (source.equals(l.source()) && m.find()) {
        out.add(new double[] {l.ts(), Double.parseDouble(m.group(1))});
      }
    }
    return out;
  }

  /** qperf's reduction of a run, its time over its messages: one second over the mean 1-s rate, from {@code from}. */
  private static double harmonicMean(List<double[]> seconds, long from) {
    double rates = 0;
    int n = 0;
    for (double[] s : seconds) {
      if (s[0] - 1_000 >= from - 200) {
        rates += 1.0 / s[1];
        n++;
      }
    }
    return n / rates;
  }
}
