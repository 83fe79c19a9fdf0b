package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.collector.ToolOutput;
import io.netpulse.common.event.LineEvent;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stop: steady} for the tests whose value is a sum of netperf figures (TCP_CRR new connections, TCP_RR),
 * on the namespace test hosts: each repetition ends one window after the per-second sum of the instances'
 * {@code -D 1} interim rates settles, long before the planned duration. Its value (the stopped netperfs print no
 * figure) is checked twice: against the same interim lines read back from {@code lines} and reduced by hand
 * (each line over its own "over D seconds", none of netpulse's code: the same traffic, so tight), and against a
 * fixed run of the same tests afterwards.
 *
 * <p>The SUT's link is capped both ways ({@link LinkCap}, {@value #CAP}), so the cap, not the machine's load, sets
 * the rates: two netperf streams offer several times what it passes even beside CI's other test JVM (uncapped, the
 * same fixed and steady runs read 112k and 53k TCP_RR transactions/s at different loads). So the class runs in the
 * parallel phase, and the steady and fixed means must agree within {@value #AGREE_PERCENT} % (see there why not closer).
 */
@Tag("measurement")
class InterimSteadyStopTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final String CAP = "4mbit";
  private static final String TESTS =
      "{ type: new_connections, streams: 2, duration: %ds }|{ type: tcp_rr, streams: 2, duration: %ds }";
  /**
   * The fixed run is 6 s: a TCP_CRR instance whose SYN the full queue at the cap drops waits out its 1-s
   * retransmission (one interim line of 326 against 600 connections/s), which the fixed mean keeps and a steady window
   * does not (steady 1,243 against fixed 1,083 once in CI, 13 %; steady 961 against fixed 1,253 in another, 23 %,
   * with the measurement phase's other JVMs on the same two cores). A sum over the wrong instances or windows is off
   * by a factor (2 streams: 50 % or 100 %), not by that; the value itself is checked to 3 % against the lines by hand.
   */
  private static final double AGREE_PERCENT = 35;
  /** Planned duration of the steady runs: what a repetition would take without the early stop. */
  private static final int DURATION_S = 90;
  private static final Pattern INTERIM =
      Pattern.compile("Interim result:\\s+(\\S+) Trans/s over (\\S+) seconds ending at (\\S+)");

  @TempDir Path dir;

  @Test
  void newConnectionsAndTcpRrStopOneWindowAfterTheirSumSettlesWithTheValueOfTheirInterimLines() throws Exception {
    // the fixed runs first: the first suite in this JVM also pays for its class loading and JIT, on the same two
    // cores as the CPU-bound TCP_CRR
    Path fixedPlan = TestPlans.write(dir, HOSTS, "interim-fixed", """
        repetitions: 1
        stop: fixed
        warmup: 2s""", TESTS.formatted(6, 6).split("\\|"));
    SharedPipeline pipeline = SharedPipeline.get();
    try (LinkCap into = LinkCap.into(HOSTS, HOSTS.sut(), CAP); LinkCap outOf = LinkCap.outOf(HOSTS, HOSTS.sut(), CAP)) {
      fixedThenSteady(fixedPlan, pipeline);
      System.err.println("INTERIM caps: " + into.describe() + ": " + into.stats() + "\n" + outOf.describe() + ": "
          + outOf.stats());
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  private void fixedThenSteady(Path fixedPlan, SharedPipeline pipeline) throws Exception {
    Map<String, JsonNode> f;
    RunEndToEndTest.Run fixed = RunEndToEndTest.run(fixedPlan, pipeline.runArgs());
    assertThat(fixed.exit()).as(fixed.stderr()).isZero();
    f = fixed.byTypeAndMetric();
    // what steady mode reports is netperf's own figure restricted to the window: over a whole run, an instance's
    // interim lines (each over its own interval) average to exactly the Trans. Rate it prints at its end
    List<String> fixedRunIds = new ArrayList<>();
    f.get("new_connections/connections_per_s").path("runIds").forEach(id -> fixedRunIds.add(id.asText()));
    f.get("tcp_rr/trans_per_s").path("runIds").forEach(id -> fixedRunIds.add(id.asText()));
    for (ToolOutput o : TopicReader.toolOutputs(pipeline.bootstrapServers(), fixedRunIds, fixedRunIds.size() * 2)) {
      double[] byHand = interimMeanAndFinal(o.stdout());
      System.err.printf(Locale.ROOT, "INTERIM fixed %s #%d: interim mean %.1f, final %.1f, rates %s%n", o.run(),
          o.instance(), byHand[0], byHand[1], o.stdout().lines().map(INTERIM::matcher).filter(Matcher::find)
              .map(m -> m.group(1)).toList());
      assertThat(byHand[0]).as(o.run() + " #" + o.instance() + ": " + o.stdout())
          .isCloseTo(byHand[1], org.assertj.core.data.Percentage.withPercentage(1));
    }
    Path steadyPlan = TestPlans.write(dir, HOSTS, "interim-steady", """
        repetitions: 2
        stop: steady
        warmup: 2s
        steady: { criterion: spread, window: 3s, spread: 40 }""", TESTS.formatted(DURATION_S, DURATION_S).split("\\|"));
    Map<String, JsonNode> s;
    long steadyWall;
    long t0 = System.nanoTime();
    RunEndToEndTest.Run steady = RunEndToEndTest.run(steadyPlan, pipeline.runArgs());
    steadyWall = (System.nanoTime() - t0) / 1_000_000_000L;
    assertThat(steady.exit()).as(steady.stderr()).isZero();
    s = steady.byTypeAndMetric();
    for (String key : new String[] {"new_connections/connections_per_s", "tcp_rr/trans_per_s"}) {
      JsonNode r = s.get(key);
      assertThat(r).as(key + " in " + steady.stdout()).isNotNull();
      assertThat(r.path("runs")).as(key).hasSize(2);
      List<String> runIds = new ArrayList<>();
      r.path("repetitions").forEach(rep -> runIds.add(rep.path("run").asText()));
      Map<String, TopicReader.Window> windows = TopicReader.windows(pipeline.bootstrapServers(), runIds);
      List<LineEvent> lines = TopicReader.lines(pipeline.bootstrapServers(), runIds);
      int i = 0;
      for (JsonNode rep : r.path("repetitions")) {
        TopicReader.Window w = windows.get(rep.path("run").asText());
        System.err.println("INTERIM " + w.run() + " " + rep + ": " + secondsByHand(lines.stream()
            .filter(l -> l.run().equals(w.run())).toList()));
        // settled well inside the planned 2 + 90 s and measured one 3-s window from there: the traffic lasted
        // less than half its planned time
        long window = rep.path("measuringEndMs").asLong() - rep.path("measuringStartMs").asLong();
        assertThat(window).as(rep.toString()).isBetween(3_000L, 4_500L);
        assertThat(rep.path("steadyAfterMs").asLong()).as(rep.toString()).isNotNegative();
        assertThat(rep.path("steadyAfterMs").asLong() + window).as(rep.toString())
            .isLessThan((DURATION_S + 2) * 1000L / 2);
        double byHand = summedByHand(lines.stream().filter(l -> l.run().equals(w.run())).toList(), w);
        double netpulse = r.path("runs").get(i++).asDouble();
        System.err.printf(Locale.ROOT, "INTERIM %s %s: netpulse %.1f, by hand %.1f%n", key, w.run(), netpulse,
            byHand);
        assertThat(netpulse).as(key + " " + w.run()).isCloseTo(byHand, org.assertj.core.data.Percentage.withPercentage(3));
      }
    }
    // the tcp_rr runs' sar rate comes from the same early-stopped window
    assertThat(s.get("tcp_rr/rx_pps").path("runs")).hasSize(2);
    System.err.printf(Locale.ROOT, "INTERIM steady suite: %d s wall (attached: no pipeline start) for 4 repetitions "
        + "planned at %d s of traffic each%n", steadyWall, DURATION_S + 2);

    for (String key : new String[] {"new_connections/connections_per_s", "tcp_rr/trans_per_s"}) {
      double steadyMean = s.get(key).path("mean").asDouble();
      double fixedMean = f.get(key).path("mean").asDouble();
      System.err.printf(Locale.ROOT, "INTERIM %s: steady %.1f %s, fixed %.1f %s%n", key, steadyMean,
          s.get(key).path("runs"), fixedMean, f.get(key).path("runs"));
      // the cap's rate both times: a sum over the wrong instances or windows shows
      assertThat(steadyMean).as(key).isCloseTo(fixedMean, org.assertj.core.data.Percentage.withPercentage(AGREE_PERCENT));
    }
  }

  /**
   * The seed's reduction of netperf demo output, by hand: each instance's lines, each over its own printed
   * interval, integrated over the part of the window they cover and divided by its length; summed over instances.
   */
  private static double summedByHand(List<LineEvent> lines, TopicReader.Window w) {
    Map<String, List<double[]>> byInstance = piecesByInstance(lines);
    assertThat(byInstance).as("instances streaming interim lines in " + w.run()).hasSize(2);
    double total = 0;
    for (List<double[]> pieces : byInstance.values()) {
      double from = Math.max(w.startMs(), pieces.stream().mapToDouble(p -> p[0]).min().orElseThrow());
      double to = Math.min(w.endMs(), pieces.stream().mapToDouble(p -> p[1]).max().orElseThrow());
      double amount = 0;
      for (double[] p : pieces) {
        amount += p[2] * Math.max(0, Math.min(p[1], to) - Math.max(p[0], from)) / 1000;
      }
      total += amount * 1000 / (to - from);
    }
    return total;
  }

  /** Each instance's interim lines as pieces {start ms, end ms, rate}, by "host#instance". */
  private static Map<String, List<double[]>> piecesByInstance(List<LineEvent> lines) {
    Map<String, List<double[]>> byInstance = new TreeMap<>();
    for (LineEvent l : lines) {
      Matcher m = INTERIM.matcher(l.line());
      if ("netperf".equals(l.source()) && m.find()) {
        double end = Double.parseDouble(m.group(3)) * 1000;
        byInstance.computeIfAbsent(l.host() + "#" + l.instance(), k -> new ArrayList<>())
            .add(new double[] {end - Double.parseDouble(m.group(2)) * 1000, end, Double.parseDouble(m.group(1))});
      }
    }
    return byInstance;
  }

  /** Diagnostics: per instance its longest interval (s), then the per-second sums from its first line, by hand. */
  private static String secondsByHand(List<LineEvent> lines) {
    Map<String, List<double[]>> byInstance = piecesByInstance(lines);
    StringBuilder out = new StringBuilder();
    double from = Double.MAX_VALUE;
    double to = 0;
    for (var e : byInstance.entrySet()) {
      out.append(e.getKey()).append(" longest ").append(String.format(Locale.ROOT, "%.2f s; ",
          e.getValue().stream().mapToDouble(p -> (p[1] - p[0]) / 1000).max().orElse(0)));
      from = Math.min(from, e.getValue().stream().mapToDouble(p -> p[0]).min().orElse(from));
      to = Math.max(to, e.getValue().stream().mapToDouble(p -> p[1]).max().orElse(to));
    }
    for (double sec = Math.ceil(from / 1000) * 1000; sec + 1000 <= to; sec += 1000) {
      double sum = 0;
      for (List<double[]> pieces : byInstance.values()) {
        for (double[] p : pieces) {
          sum += p[2] * Math.max(0, Math.min(p[1], sec + 1000) - Math.max(p[0], sec)) / 1000;
        }
      }
      out.append(Math.round(sum)).append(' ');
    }
    return out.toString();
  }

  /** An instance's interim lines averaged over their own intervals, and the Trans. Rate it printed at its end. */
  private static double[] interimMeanAndFinal(String stdout) {
    double amount = 0;
    double seconds = 0;
    double last = Double.NaN;
    for (String line : stdout.lines().toList()) {
      Matcher m = INTERIM.matcher(line);
      String[] t = line.trim().split("\\s+");
      if (m.find()) {
        amount += Double.parseDouble(m.group(1)) * Double.parseDouble(m.group(2));
        seconds += Double.parseDouble(m.group(2));
      } else if (t.length == 6 && t[0].matches("\\d+")) {
        last = Double.parseDouble(t[5]);
      }
    }
    return new double[] {amount / seconds, last};
  }
}
