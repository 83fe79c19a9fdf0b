package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.collector.ToolOutput;
import io.netpulse.common.json.Json;
import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's new_connections fidelity: {@code netpulse run} against seed 000's procedure run by hand on the same
 * namespace hosts (one {@code netserver -D -p P} per port, then N × {@code netperf -H SUT -t TCP_CRR -l D -p P --
 * -r 64} started at once, Trans. Rate summed as the seed's awk does), interleaved: by hand, netpulse, by hand, …,
 * by hand; the by-hand runs around netpulse's show how far the machine drifted.
 *
 * <p>netpulse's mean must lie within the by-hand runs' spread widened by the fidelity bed's tolerance ({@link
 * FidelityBedTest}), [min × 0.98, max × 1.02], or within ±2 % of their median. Not the bare spread: through the cap
 * netpulse read 1,256–1,270 connections/s in CI while the by-hand runs around it read 1,263–1,401 (their sum of
 * rates grows with start skew, see below), netpulse 0.14 % under the lowest; in the next run netpulse read 1,258–1,264
 * again and the by-hand runs 870–1,276. The pipeline's figure sits at the cap's rate, the reference is what swings. At the cap netpulse read 0.992 and 0.983 × the by-hand mean in two
 * runs (by hand 0.5 % and 3.5 % apart, the first by-hand run of the second the highest): a low bias of about 1 %
 * not explained yet (not start skew: its clients began within 26–93 ms and the sum-of-rates ratio was 1.00–1.02).
 *
 * <p>The SUT's link is capped both ways ({@link LinkCap}, {@value #CAP}), as a cloud NIC's limit would: 8 TCP_CRR
 * streams offer several times what it passes even beside CI's other test JVM, so the cap sets the rate (1,232–1,252
 * connections/s for 2 streams in {@link InterimSteadyStopTest}) and the class runs in the parallel phase.
 * Uncapped, CRR is CPU-bound: the by-hand runs around one netpulse run were once 24 % apart in CI, and the test had
 * to pin the tools and the pipeline to separate CPUs and run alone. A start skew still shows through the cap: an
 * instance that runs part of its time with fewer competitors gets more of the cap, and the sum of rates grows.
 * netperf's {@code -D 1}, which netpulse adds for its per-second lines, changed nothing uncapped: 0.998 × without it,
 * in five interleaved pairs by hand.
 *
 * <p>Why netpulse read 1.20–1.40 × the by-hand sum before: it started its clients one SSH channel at a time, each
 * waiting for its PID, so 8 netperf of 6 s started 2.2–3.9 s apart (and ended as far apart) on a busy host, while
 * the seed's {@code for ... &} loop starts them within ~0.1 s. Each instance then ran part of its time with fewer
 * competitors for the CPU, and the sum of their rates (connections ÷ each one's own 6 s) counted more connections
 * per second than were ever made at once: 1.4–1.65 × the connections of all instances ÷ the time from the first
 * start to the last end, in the same runs. Options, ports, duration ({@code -l} = warm-up + duration, 0 + 6 here),
 * the summed figure (each instance's final Trans. Rate) and the by-hand arithmetic were the same. Clients now wait
 * at a start barrier and are released together.
 */
@Tag("measurement")
class NewConnectionsFidelityTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final int STREAMS = 8;
  private static final int SECONDS = 6;
  private static final int PORT = 9001;
  private static final int NETPULSE_RUNS = 3;
  private static final String CAP = "4mbit";
  private static final double TOLERANCE = 0.02;
  private static final Pattern INTERIM =
      Pattern.compile("Interim result:\\s+\\S+\\s+\\S+\\s+over\\s+([0-9.]+)\\s+seconds ending at\\s+([0-9.]+)");

  @TempDir Path dir;
  /** (epoch ms, this JVM's CPU seconds) every 200 ms: what the pipeline used while clients ran. */
  private final List<double[]> jvmCpu = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Test
  void netpulseStaysWithinTheSpreadOfTheSeedsProcedureRunByHandInterleaved() throws Exception {
    System.out.println("FIDELITY-CRR load before: " + loadAverage());
    List<Double> byHand = new ArrayList<>();
    List<Double> netpulse = new ArrayList<>();
    Thread cpuSampler = new Thread(() -> {
      try {
        while (true) {
          jvmCpu.add(new double[] {System.currentTimeMillis(), Cpus.jvmCpuSeconds()});
          Thread.sleep(200);
        }
      } catch (InterruptedException | java.io.IOException e) {
        // the test is over
      }
    }, "jvm-cpu-sampler");
    cpuSampler.setDaemon(true);
    SharedPipeline pipeline = SharedPipeline.get();
    cpuSampler.start();
    try (LinkCap into = LinkCap.into(HOSTS, HOSTS.sut(), CAP); LinkCap outOf = LinkCap.outOf(HOSTS, HOSTS.sut(), CAP)) {
      byHand.add(byHand("hand-1"));
      for (int i = 1; i <= NETPULSE_RUNS; i++) {
        netpulse.add(netpulse(pipeline, i));
        byHand.add(byHand("hand-" + (i + 1)));
      }
      System.out.println("FIDELITY-CRR caps: " + into.describe() + ": " + into.stats() + "; " + outOf.describe() + ": "
          + outOf.stats());
    } finally {
      cpuSampler.interrupt();
    }
    System.out.println("FIDELITY-CRR load after: " + loadAverage());
    double min = byHand.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    double max = byHand.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    double handMean = byHand.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double mean = netpulse.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double agreement = (max - min) / min;
    double drift = (byHand.get(byHand.size() - 1) - byHand.get(0)) / byHand.get(0);
    System.out.printf(Locale.ROOT, "FIDELITY-CRR by hand %s (mean %.1f, spread %.1f %%, drift first→last %+.1f %%);"
            + " netpulse %s (mean %.1f, %.3f × the by-hand mean)%n", rounded(byHand), handMean, 100 * agreement,
        100 * drift, rounded(netpulse), mean, mean / handMean);
    // the median, not the mean, of the by-hand runs: one by-hand run once read 1438 where the others read 1259-1311
    // (CPU-bound TCP_CRR beside the other measurement classes), pulling their mean 3.7 % above netpulse's steady
    // 1257-1259 while netpulse sat 0.1 % under the lowest
    List<Double> sorted = byHand.stream().sorted().toList();
    double handMedian = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
        : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
    boolean inSpread = mean >= min * (1 - TOLERANCE) && mean <= max * (1 + TOLERANCE);
    boolean nearMedian = Math.abs(mean - handMedian) <= TOLERANCE * handMedian;
    assertThat(inSpread || nearMedian).as("netpulse's mean %.1f within the by-hand spread [%.1f, %.1f] widened by "
        + "2 %% or ±2 %% of their median %.1f (mean %.1f)", mean, min, max, handMedian, handMean).isTrue();
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /**
   * One {@code netpulse run} of one repetition; its value must be its own netperf outputs summed by hand (the same
   * traffic, no noise), and how far apart its clients started and ended is printed.
   */
  private double netpulse(SharedPipeline pipeline, int i) throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "fidelity-crr-" + i, "repetitions: 1\nstop: fixed\nwarmup: 0s",
        "{ type: new_connections, streams: " + STREAMS + ", port: " + PORT + ", duration: " + SECONDS + "s }");
    double cpu = Cpus.jvmCpuSeconds();
    long wall = System.nanoTime();
    RunEndToEndTest.Run r = RunEndToEndTest.run(plan, pipeline.runArgs());
    System.out.printf(Locale.ROOT, "FIDELITY-CRR netpulse-%d: the pipeline (this JVM) used %.1f CPU-s in %.1f s%n", i,
        Cpus.jvmCpuSeconds() - cpu, (System.nanoTime() - wall) / 1e9);
    assertThat(r.exit()).as(r.stderr()).isZero();
    JsonNode entry = r.byTypeAndMetric().get("new_connections/connections_per_s");
    assertThat(entry).as(r.stdout()).isNotNull();
    assertThat(entry.path("runs")).as(entry.toString()).hasSize(1);
    double value = entry.path("runs").get(0).asDouble();
    String runId = entry.path("runIds").get(0).asText();
    List<ToolOutput> outputs = TopicReader.toolOutputs(pipeline.bootstrapServers(), List.of(runId), STREAMS).stream()
        .filter(o -> "netperf".equals(o.tool())).toList();
    assertThat(outputs).hasSize(STREAMS);
    double summed = ByHand.transRateSum(outputs.stream().map(ToolOutput::stdout).toList());
    assertThat(ByHand.relativeDifference(value, summed)).as("netpulse %.1f vs its netperf outputs summed by hand %.1f",
        value, summed).isLessThanOrEqualTo(0.001);
    long startSpan = outputs.stream().mapToLong(ToolOutput::started).max().orElseThrow()
        - outputs.stream().mapToLong(ToolOutput::started).min().orElseThrow();
    long endSpan = outputs.stream().mapToLong(ToolOutput::ended).max().orElseThrow()
        - outputs.stream().mapToLong(ToolOutput::ended).min().orElseThrow();
    List<String> stdouts = outputs.stream().map(ToolOutput::stdout).toList();
    System.out.printf(Locale.ROOT, "FIDELITY-CRR netpulse-%d: %.1f connections/s; clients began within %s ms by"
            + " netperf's clock (%d ms apart as their start lines arrived here), ended within %d ms; sum of rates ÷"
            + " (all connections ÷ first start to last end) = %s; %s; ran: %s%n", i, value,
        interimStartSpanMillis(stdouts), startSpan, endSpan, togetherRatio(stdouts, value),
        jvmCpuBetween(outputs.stream().mapToLong(ToolOutput::started).min().orElseThrow(),
            outputs.stream().mapToLong(ToolOutput::ended).max().orElseThrow()), outputs.get(0).command());
    return value;
  }

  /** The share of a core this JVM (the pipeline) used between two epoch ms, from the sampler's readings. */
  private String jvmCpuBetween(long from, long to) {
    double[] a = null;
    double[] b = null;
    for (double[] s : jvmCpu) {
      if (s[0] <= from) {
        a = s;
      }
      if (b == null && s[0] >= to) {
        b = s;
      }
    }
    if (b == null && !jvmCpu.isEmpty()) {
      b = jvmCpu.get(jvmCpu.size() - 1); // the clients have just ended
    }
    if (a == null || b == null || b[0] <= a[0]) {
      return "pipeline CPU while clients ran: n/a";
    }
    return String.format(Locale.ROOT, "the pipeline used %.0f %% of a core while clients ran",
        100 * (b[1] - a[1]) / ((b[0] - a[0]) / 1000));
  }

  /**
   * The sum of the instances' rates over what they made together per second, from their {@code -D 1} interim
   * lines: 1.00 when all ran over the same time, more the further apart they ran.
   */
  private static String togetherRatio(List<String> outputs, double sumOfRates) {
    double first = Double.MAX_VALUE;
    double last = 0;
    double connections = 0;
    for (String out : outputs) {
      Matcher m = INTERIM.matcher(out);
      while (m.find()) {
        double over = Double.parseDouble(m.group(1));
        double end = Double.parseDouble(m.group(2));
        first = Math.min(first, end - over);
        last = Math.max(last, end);
      }
      connections += lastResultLine(out)[5] * lastResultLine(out)[4]; // Trans. Rate × elapsed s
    }
    return last <= first ? "n/a" : String.format(Locale.ROOT, "%.2f", sumOfRates / (connections / (last - first)));
  }

  /**
   * How far apart the instances began, by netperf's own clock: each one's first {@code -D 1} interim line covers
   * the time from its start ("over D seconds ending at E": it began at E − D); "n/a" without interim lines.
   */
  static String interimStartSpanMillis(List<String> outputs) {
    double first = Double.MAX_VALUE;
    double last = -Double.MAX_VALUE;
    for (String out : outputs) {
      Matcher m = INTERIM.matcher(out);
      if (!m.find()) {
        return "n/a";
      }
      double start = Double.parseDouble(m.group(2)) - Double.parseDouble(m.group(1));
      first = Math.min(first, start);
      last = Math.max(last, start);
    }
    return String.valueOf(Math.round((last - first) * 1000));
  }

  /** The six numbers of netperf's TCP_CRR result line (send, recv, request, response, elapsed s, Trans. Rate). */
  private static double[] lastResultLine(String out) {
    double[] numbers = null;
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 6 && List.of(f).stream().allMatch(x -> x.matches("-?\\d+(\\.\\d+)?"))) {
        numbers = List.of(f).stream().mapToDouble(Double::parseDouble).toArray();
      }
    }
    assertThat(numbers).as("TCP_CRR result line in:\n" + out).isNotNull();
    return numbers;
  }

  /** Seed 000 by hand: one netserver per port, then the netperf clients started at once; their Trans. Rate summed. */
  private double byHand(String label) throws Exception {
    HostNetwork net = HOSTS.network();
    List<Process> servers = new ArrayList<>();
    List<Process> clients = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    try {
      for (int i = 0; i < STREAMS; i++) {
        servers.add(net.start(HOSTS.sut(), List.of("netserver", "-D", "-p", String.valueOf(PORT + i))));
      }
      for (int i = 0; i < STREAMS; i++) {
        HOSTS.awaitListening(HOSTS.sut(), PORT + i);
      }
      long first = System.currentTimeMillis();
      for (int i = 0; i < STREAMS; i++) {
        Path log = dir.resolve("by-hand-crr-" + label + "-" + i + ".log");
        logs.add(log);
        clients.add(net.start(HOSTS.peer(), List.of("netperf", "-H", HOSTS.sut().address(), "-t",
            "TCP_CRR", "-l", String.valueOf(SECONDS), "-p", String.valueOf(PORT + i), "--", "-r", "64"), log));
      }
      long span = System.currentTimeMillis() - first;
      long began = System.currentTimeMillis();
      List<String> outputs = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        boolean ended = clients.get(i).waitFor(SECONDS + 60L, TimeUnit.SECONDS);
        String out = Files.readString(logs.get(i));
        assertThat(ended).as("netperf %d (%s) ended: %s", i, label, out).isTrue();
        assertThat(clients.get(i).exitValue()).as("netperf %d (%s): %s", i, label, out).isZero();
        outputs.add(out);
      }
      double sum = ByHand.transRateSum(outputs);
      System.out.printf(Locale.ROOT, "FIDELITY-CRR %s: %.1f connections/s; clients started within %d ms; %s%n", label,
          sum, span, jvmCpuBetween(began, System.currentTimeMillis()));
      return sum;
    } finally {
      clients.forEach(net::stop);
      servers.forEach(net::stop);
    }
  }

  private static List<String> rounded(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList();
  }

  private static String loadAverage() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).strip();
  }
}
