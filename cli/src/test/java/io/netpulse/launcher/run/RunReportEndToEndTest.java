package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code netpulse run} on the namespace test hosts, then {@code netpulse report} of it from the data
 * dir the run's embedded broker left: the report holds the run's results, and the sar-based test its 1-s
 * series of the SUT's interface over each repetition's measuring window.
 *
 * <p>The SUT's link is capped at 8 Mbit/s ({@link LinkCap}): uncapped, one second of a repetition read 969 Mbit/s
 * and another 632 beside CI's other test JVM, so a series could not be compared with its repetition's value.
 */
@Tag("browser")
class RunReportEndToEndTest { // also the dashboard's run view during that run (one real run for both)

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void reportOfARealRunHasItsResultsAndPerSecondSeries() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "e2e-report", """
        repetitions: 2
        stop: fixed
        warmup: 1s""",
        "{ type: latency, duration: 2s, ping_count: 3 }",
        "{ type: rx_bandwidth, streams: 2, duration: 5s }");
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path resultsFile = dir.resolve("results.json"); // run -o: the results go to the file, not stdout
    RunEndToEndTest.Run run;
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), "8mbit")) {
      java.util.concurrent.CompletableFuture<RunEndToEndTest.Run> running = java.util.concurrent.CompletableFuture
          .supplyAsync(() -> RunEndToEndTest.run(plan, "--dashboard-port=" + port, "-o", resultsFile.toString()));
      RunDashboardView.follow(running, port, dir, "rx_bandwidth"); // the dashboard's run view while it runs
      run = running.get();
    }
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertThat(run.stderr()).contains("dashboard http://127.0.0.1:" + port + "/runs.html");
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("results " + resultsFile.toAbsolutePath() + " (json)");
    JsonNode results = Json.mapper().readTree(resultsFile.toFile());
    java.util.Set<String> types = new java.util.TreeSet<>();
    results.forEach(r -> types.add(r.path("type").asText()));
    assertThat(types).containsExactly("latency", "rx_bandwidth");

    String data = "--data-dir=" + dir.resolve("data");
    CliRun md = CliRun.of("report", plan.toString(), "--format", "md", data);
    assertThat(md.exit()).as(md.err()).isEqualTo(0);
    for (JsonNode r : results) {
      assertThat(md.out()).contains("| " + r.path("test").asText() + " | " + r.path("metric").asText() + " | "
          + r.path("unit").asText() + " | ");
    }

    Path html = dir.resolve("r.html");
    CliRun h = CliRun.of("report", "e2e-report", "--output", html.toString(), data);
    assertThat(h.exit()).as(h.err()).isEqualTo(0);
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"report-data\">(.*?)</script>", Pattern.DOTALL)
        .matcher(Files.readString(html));
    assertThat(m.find()).isTrue();
    JsonNode sections = Json.mapper().readTree(m.group(1)).path("sections");
    JsonNode bw = null;
    for (JsonNode s : sections) {
      if (s.path("metric").asText().equals("rx_bps")) {
        bw = s;
      }
    }
    assertThat(bw).as(m.group(1)).isNotNull();
    JsonNode ps = bw.path("perSecond");
    assertThat(ps.path("unit").asText()).isEqualTo("bit/s");
    assertThat(ps.path("series")).hasSize(2);
    for (JsonNode series : ps.path("series")) {
      assertThat(series.path("host").asText()).isEqualTo("sut");
      double sum = 0;
      int n = 0;
      for (JsonNode v : series.path("values")) {
        if (!v.isNull()) {
          sum += v.asDouble();
          n++;
        }
      }
      assertThat(n).as(series.toString()).isGreaterThanOrEqualTo(4); // a 5-s window: 5 or 6 seconds overlap it
      // the repetition's value is the mean of its window's sar samples; the overlapping 1-s windows hold
      // those samples plus at most one from just before or after the window, which may be a part second
      double value = 0;
      for (JsonNode v : bw.path("values")) {
        if (v.path("repetition").asInt() == series.path("repetition").asInt()) {
          value = v.path("value").asDouble();
        }
      }
      assertThat(sum / n).isCloseTo(value, within(value * 0.25));
    }
  }

}
