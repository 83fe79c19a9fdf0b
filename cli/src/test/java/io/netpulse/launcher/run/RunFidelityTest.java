package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.run.TopicReader.Window;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4's fidelity acceptance: for rx_bandwidth and rx_pps, {@code netpulse run}'s result is within ±5 % of the
 * seeds' manual procedure run on the same namespace hosts and reduced by hand (split on whitespace, average or sum —
 * none of netpulse's parsers). new_connections: {@link NewConnectionsFidelityTest}.
 *
 * <p>rx_bandwidth and rx_pps are compared on the <em>same traffic</em>: a second {@code sar -n DEV 1}
 * of our own runs on the SUT while netpulse runs the test, and its rows are averaged over each
 * repetition's measuring window as netpulse's lifecycle on {@code runs} gives it. Two runs of the same
 * traffic one after the other would differ by more than 5 % on this machine (2 cores shared with other
 * builds): the noise of the machine, not netpulse, would decide the outcome.
 *
 * <p>The SUT's link is capped ({@link LinkCap}, 8 Mbit/s as in {@link FidelityBedTest}): the two sars sample at
 * different sub-second phases, so each window edge differs by a fraction of a row, and uncapped rows swung ±35 %
 * here (an 18-s window was needed to keep that inside 5 %; 14 s once gave 5.05 %). Through the cap every row carries
 * the same traffic, so a 6-s window measures as well, and other tests' load on the machine cannot move the rows
 * either: the class runs beside them.
 */
@Tag("measurement")
class RunFidelityTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final double TOLERANCE = 0.05;
  /** What the SUT receives, capped: RX traffic holds still at it (class doc). */
  private static final String CAP = "8mbit";
  private static final int SECONDS = 6;
  /** sysstat's kB is 1024 bytes: kB/s × 8192 = bit/s. */
  private static final double SAR_KB_TO_BITS = 1024 * 8;

  @TempDir Path dir;

  @Test
  void rxBandwidthAndRxPpsEqualTheSeedsSarAverageOfTheSameTraffic() throws Exception {
    Path sarLog = dir.resolve("manual-sar.txt");
    SharedPipeline pipeline = SharedPipeline.get();
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), CAP)) {
      Path plan = TestPlans.write(dir, HOSTS, "fidelity-rx", "repetitions: 2\nstop: fixed\nwarmup: 2s",
          // through the cap the rows hold still: a window edge's fraction of a row no longer moves the mean (class doc)
          "{ type: rx_bandwidth, streams: 2, duration: " + SECONDS + "s }",
          "{ type: rx_pps, tool: iperf3, streams: 2, duration: " + SECONDS + "s }");
      // the seed's manual sampler, on the SUT, for the whole run
      RunEndToEndTest.Run r = RunEndToEndTest.runBesideManualSar(HOSTS, sarLog, plan, pipeline.runArgs());
      System.out.println("FIDELITY " + cap.describe() + ": " + cap.stats());
      assertThat(r.exit()).as(r.stderr()).isZero();
      JsonNode results = Json.mapper().readTree(r.stdout());
      String sarText = Files.readString(sarLog);

      compareWithSar(pipeline.bootstrapServers(), entry(results, "rx_bandwidth", "rx_bps"), sarText,
          row -> row.rxKilobytesPerS() * SAR_KB_TO_BITS);
      compareWithSar(pipeline.bootstrapServers(), entry(results, "rx_pps", "rx_pps"), sarText,
          ByHand.SarRow::rxPacketsPerS);
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** Our sar's rows inside each repetition's window, averaged, then averaged over repetitions. */
  private void compareWithSar(String bootstrap, JsonNode entry, String sarText,
      ToDoubleFunction<ByHand.SarRow> value) {
    List<String> runIds = runIds(entry);
    Map<String, Window> windows = TopicReader.windows(bootstrap, runIds);
    List<Double> perRepetition = new ArrayList<>();
    for (String id : runIds) {
      Window w = windows.get(id);
      assertThat(w.iface()).as("SUT interface named by " + id).isEqualTo(HOSTS.sut().iface());
      List<ByHand.SarRow> rows = ByHand.inWindow(ByHand.sarRows(sarText, w.iface()), w.startMs(), w.endMs());
      // a window of ~6 s holds ~4 whole per-second rows; far fewer means the two clocks or the windows disagree
      assertThat(rows).as("manual sar rows of %s in its %d ms window", id, w.millis())
          .hasSizeGreaterThanOrEqualTo((int) (w.millis() / 1000) - 3);
      perRepetition.add(rows.stream().mapToDouble(value).average().orElseThrow());
      System.out.printf(Locale.ROOT, "FIDELITY window %s: %d ms, %d manual sar rows: %s%n", id, w.millis(),
          rows.size(), rows.stream().map(row -> String.format(Locale.ROOT, "%.0f", value.applyAsDouble(row))).toList());
    }
    double manual = perRepetition.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double netpulse = entry.path("mean").asDouble();
    double diff = ByHand.relativeDifference(netpulse, manual);
    report(entry.path("test").asText() + "/" + entry.path("metric").asText(), netpulse, manual, diff,
        "netpulse runs " + entry.path("runs") + ", manual sar per repetition " + perRepetition);
    assertThat(diff).as("%s: netpulse %.1f vs manual sar %.1f", entry.path("test").asText(), netpulse, manual)
        .isLessThanOrEqualTo(TOLERANCE);
  }

  private static JsonNode entry(JsonNode results, String test, String metric) {
    for (JsonNode n : results) {
      if (test.equals(n.path("test").asText()) && metric.equals(n.path("metric").asText())) {
        return n;
      }
    }
    throw new AssertionError("no " + test + "/" + metric + " in " + results);
  }

  private static List<String> runIds(JsonNode entry) {
    List<String> ids = new ArrayList<>();
    entry.path("runIds").forEach(n -> ids.add(n.asText()));
    assertThat(ids).as("runIds of " + entry).isNotEmpty();
    assertThat(entry.path("failedRepetitions").size()).as("failed repetitions of " + entry).isZero();
    return ids;
  }

  private static void report(String what, double netpulse, double manual, double diff, String detail) {
    System.out.printf(Locale.ROOT, "FIDELITY %s: netpulse %.1f, manual %.1f, difference %.2f %% (%s)%n", what,
        netpulse, manual, 100 * diff, detail);
  }
}
