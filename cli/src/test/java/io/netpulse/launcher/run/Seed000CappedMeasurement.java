package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testkit.LinkCap;
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
 * Issue 17's acceptance measurement: seed 000's whole suite (examples/seed-000-huawei.yaml: every test, 3 repetitions,
 * the seed's durations, concurrent connections at this machine's open-file limit, fewer pps and TCP_CRR streams:
 * {@link #PPS_STREAMS}) on the capped test bed, once with
 * {@code stop: steady} and the settings docs/steady-state.md recommends for instance types without burst credits
 * (precision 1 %, min_measure 10 s, a 5-s warm-up), once with {@code stop: fixed} and otherwise the same plan. Prints
 * and keeps the per-metric table, each repetition's stop reason and both wall times. A measurement, not a regression
 * test (about 80 minutes; the machine must be otherwise quiet): its name keeps it out of surefire's includes. Run it
 * with {@code mvn -B -o -pl cli test -Dtest=Seed000CappedMeasurement -Dsurefire.failIfNoSpecifiedTests=false}. It
 * runs from the installed jars of the other modules, which an {@code mvn install} meanwhile rewrites under the running
 * JVM (on 2026-12-04, after such installs, its processor stalled in a rebalance and gave no result; from a clone of its
 * own the same run was healthy). To go on building, run it from a clone with {@code -Dmaven.repo.local} set to a copy
 * of the repository.
 *
 * <p>The bed: both hosts' sending links capped at 40 Mbit/s with tbf (the peer's for the RX tests, the SUT's for the
 * TX tests), so that every second carries the same packets. Caps on the senders, not on the SUT's receiving link:
 * there a 64-byte flood of 128 streams had tbf drop most of what went to the SUT, the launcher's SSH segments too,
 * and the SUT's session stalled (see LinkCap.outOfWithCredit). The pps senders offer a little more than the cap, not
 * the seed's unlimited rate ({@link #PPS_RATE}). System properties: {@code seed000.order} (default
 * {@code steady,fixed}), {@code seed000.out} (default {@code target/seed-000-capped}), {@code seed000.tests} (test types
 * to run, comma-separated, e.g. {@code rx_bandwidth,tx_bandwidth}; default all).
 */
@Tag("measurement")
class Seed000CappedMeasurement {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  static final String CAP = "40mbit";

  /**
   * The pps tests' and new_connections' streams on this bed, not the seed's 128 and 256. On 2026-12-03 128 iperf3
   * clients paced at 240 kbit/s each (1.27 times the cap in all) and 128 servers, then 256 CPU-bound TCP_CRR netperfs,
   * took the host load to ~300 on the two cores that also run the broker and the processor: a peer shell did not answer
   * within 15 s, MEASURING could not be published, the processor's transactions timed out, and none of the three tests
   * had a three-run result (docs/measurements/2026-12-03-seed-000-capped.md). The seed's unlimited {@code -b 0M} senders
   * did the same earlier. Hosts of their own would not need it; here the suite's other tests keep the seed's counts.
   */
  static final int PPS_STREAMS = 16;
  static final int CRR_STREAMS = 32;

  /**
   * Each pps client's {@code -b}: 1,920 kbit/s of 64-byte payload is 3,750 packets/s, {@value #PPS_STREAMS} of them
   * 60k, 1.27 times what the cap passes (47,170 frames of 106 bytes), as 128 senders at 240 kbit/s offered.
   */
  static final String PPS_RATE = "1920K";

  @TempDir Path dir;

  /** examples/seed-000-huawei.yaml's tests, with the plan's warm-up (the seed's 120 s is the fixed run's habit). */
  static List<String> tests() {
    return List.of(
        "{ type: latency, duration: 60s, ping_count: 120 }",
        "{ type: rx_bandwidth, streams: 128, port: 5001, message: 1440, duration: 180s }",
        "{ type: tx_bandwidth, streams: 128, port: 5001, message: 1440, duration: 180s }",
        "{ type: rx_pps, tool: iperf3, streams: " + PPS_STREAMS + ", port: 5001, message: 64, rate: " + PPS_RATE
            + ", duration: 180s }",
        "{ type: tx_pps, tool: iperf3, streams: " + PPS_STREAMS + ", port: 5001, message: 64, rate: " + PPS_RATE
            + ", duration: 180s }",
        "{ type: new_connections, streams: " + CRR_STREAMS + ", port: 9001, message: 64, warmup: 0s, duration: 20s }",
        "{ type: concurrent_connections, port: 2000, port_step: 2000, listeners: 32, duration: 120s }");
  }

  /** The tests whose type is in {@code types} (comma-separated; empty: all), to look at some tests again. */
  static String[] chosen(List<String> tests, String types) {
    if (types.isBlank()) {
      return tests.toArray(String[]::new);
    }
    List<String> wanted = List.of(types.split(","));
    return tests.stream()
        .filter(t -> wanted.stream().anyMatch(w -> t.startsWith("{ type: " + w.strip() + ",")))
        .toArray(String[]::new);
  }

  static String header(String stop) {
    return String.join("\n", "repetitions: 3", "stop: " + stop, "warmup: 5s",
        "steady: { criterion: precision, precision: 1%, min_measure: 10s }", "prepare: { nofile: 16384 }");
  }

  @Test
  void theSeedsSuiteOnTheCappedBed() throws Exception {
    List<String> order = List.of(System.getProperty("seed000.order", "steady,fixed").split(","));
    String[] tests = chosen(tests(), System.getProperty("seed000.tests", ""));
    Path out = Path.of(System.getProperty("seed000.out", "target/seed-000-capped")).toAbsolutePath();
    Files.createDirectories(out);
    Map<String, TimeToResultMeasurement.Suite> suites = new LinkedHashMap<>();
    try (LinkCap peerOut = LinkCap.outOf(HOSTS, HOSTS.peer(), CAP);
        LinkCap sutOut = LinkCap.outOf(HOSTS, HOSTS.sut(), CAP)) {
      for (String stop : order) {
        Path planDir = Files.createDirectories(dir.resolve(stop));
        suites.put(stop, TimeToResultMeasurement.runSuite(stop, TestPlans.write(planDir, HOSTS,
            "seed-000-capped-" + stop, header(stop), tests), out));
      }
    }
    TimeToResultMeasurement.Suite steady = suites.get("steady");
    TimeToResultMeasurement.Suite fixed = suites.get("fixed");
    String title = String.format(Locale.ROOT, "Seed 000 on the capped bed (tbf %s on both hosts' sending links), %s; "
        + "steady: precision 1 %%, min_measure 10 s, warm-up 5 s", CAP, Instant.now());
    // one suite alone (seed000.order=steady): its wall time and stops, for a quick look
    String table = (steady != null && fixed != null ? TimeToResultMeasurement.table(steady, fixed, title)
        : title + "\n\n" + suites.values().stream().map(s -> String.format(Locale.ROOT, "%s suite: %.1f s wall%n",
            s.stop(), s.wallMillis() / 1000.0)).collect(java.util.stream.Collectors.joining()))
        + "\n" + (steady == null ? "" : stops(steady));
    System.out.println(table);
    Files.writeString(out.resolve("table.md"), table);

    for (TimeToResultMeasurement.Suite suite : suites.values()) {
      suite.byMetric().forEach((key, r) -> {
        assertThat(r.has("error")).as(suite.stop() + " " + key + ": " + r).isFalse();
        assertThat(r.path("runs")).as(suite.stop() + " " + key + " repetitions").hasSize(3);
      });
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** Each steady result's stop reasons by repetition (precise, steady, duration, ...). */
  static String stops(TimeToResultMeasurement.Suite steady) {
    StringBuilder t = new StringBuilder("| test / metric | stop by repetition |\n|---|---|\n");
    steady.byMetric().forEach((key, r) -> {
      List<String> reasons = new ArrayList<>();
      r.path("stops").forEach(s -> reasons.add(s.path("reason").asText()
          + (s.path("precision").isNumber() ? String.format(Locale.ROOT, " (±%.2f %%)", s.path("precision").asDouble() * 100)
              : "")));
      t.append("| ").append(key).append(" | ").append(String.join(", ", reasons)).append(" |\n");
    });
    return t.toString();
  }
}
