package io.netpulse.dashboard;

import static io.netpulse.dashboard.DashboardLiveFeedTest.get;
import static io.netpulse.dashboard.DashboardLiveFeedTest.getJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.RunEvent.Phase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import io.netpulse.testkit.Exposition;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs, steady events, results and rates through a real broker into the REST API, the SSE feeds and /metrics. */
@Tag("kafka")
class DashboardApiTest {

  @TempDir Path dir;

  @Test
  void runsResultsHostsAndMetricsFromTheTopics() throws Exception {
    Topics topics = new Topics("api.");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
      kafka.createTopics(topics, 2);
      long t0 = System.currentTimeMillis() - 20_000;
      try (RateTraffic traffic = new RateTraffic(kafka.bootstrapServers(), topics.metrics())) {
        // before the dashboard starts: runs and results are read from the beginning, rates are not
        traffic.event(topics.runs(), "old-1", Events.run("old-1", "small", "rx", "rx_bandwidth", 1, Phase.DONE, t0,
            "sut", "eth0"));
        // labelled as a user may label a plan: commas, quotes and semicolons, through the topic into the CSV
        traffic.event(topics.results(), "small/rx/rx_bps", Events.result("small", "small-20261201T100000Z",
            java.util.Map.of("image", "ami-1;ami-2", "instance_type", "c7.large, \"spot\""), t0, "rx", "rx_bps",
            "bit/s", 4.0e9, 4.2e9, 4.1e9));
        traffic.send(RateTraffic.rate("early", "eth0", "rx_bps", t0, 1));

        try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), topics))) {
          dashboard.awaitLiveFeed(Duration.ofSeconds(30));
          String base = dashboard.url();
          // the backlog (old-1) read before the feeds connect: read after, it is sent on them as it arrives (it was,
          // once in CI: 3 lifecycle events on the runs feed for r1's 2)
          await().atMost(Duration.ofSeconds(30)).until(() -> get(base + "api/runs").body().contains("old-1"));
          BlockingQueue<String> runsFeed = sse(base + "events?feed=runs");
          BlockingQueue<String> fleetFeed = sse(base + "events?feed=fleet");
          // 10 s was once not enough beside other modules' tests in CI (-T 2)
          await().atMost(Duration.ofSeconds(30)).until(() -> Exposition.parse(get(base + "metrics").body())
              .value("netpulse_dashboard_sse_clients", Map.of("feed", "fleet")) == 1);

          // a second of the same series from before the run (another run's): not part of r1's series
          traffic.send(RateTraffic.rate("sut", "eth0", "rx_bps", t0 - 5000, 1));
          traffic.event(topics.runs(), "r1", Events.run("r1", "big", "rx", "rx_bandwidth", 1, Phase.WARMUP, t0 + 1000,
              "sut", "eth0"));
          traffic.event(topics.runs(), "r1", Events.run("r1", "big", "rx", "rx_bandwidth", 1, Phase.MEASURING,
              t0 + 3000, "sut", "eth0"));
          // the feed sends a series' seconds from when its run is known. A real run's lifecycle comes a warm-up ahead
          // of its seconds; produced back to back, one poll may hand the dashboard the metrics partition's records
          // before the runs partition's (CI: r1's first second missing from the feed, though in its REST series,
          // which the page loads when it shows a run)
          await().atMost(Duration.ofSeconds(30)).until(() -> get(base + "api/runs/r1").body().contains("MEASURING"));
          for (int s = 4; s <= 8; s++) {
            traffic.send(RateTraffic.rate("sut", "eth0", "rx_bps", t0 + s * 1000L, 9.0e9 + s));
          }
          traffic.send(RateTraffic.rate("other", "eth1", "rx_bps", t0 + 8000, 5e6)); // not the run's series
          traffic.event(topics.steady(), "r1", Events.steady("r1", "sut", "eth0", "rx_bps", 9.0e9, t0 + 8000));
          traffic.event(topics.results(), "big/rx/rx_bps", Events.result("big", "rx", "rx_bps", "bit/s", 9.0e9));

          // the runs feed: lifecycle, the run's own rates only, steady, result
          List<String> events = drain(runsFeed, 9);
          assertThat(events).filteredOn(e -> e.startsWith("run ")).hasSize(2);
          assertThat(events).filteredOn(e -> e.startsWith("rate ")).hasSize(5)
              .allMatch(e -> e.contains("\"host\":\"sut\""));
          assertThat(events).anyMatch(e -> e.startsWith("steady ") && e.contains("\"steady\":{"));
          assertThat(events).anyMatch(e -> e.startsWith("result ") && e.contains("\"plan\":\"big\""));

          List<RunView> runs = getJson(base + "api/runs", new TypeReference<>() {});
          assertThat(runs).extracting(RunView::run).containsExactly("r1", "old-1");
          assertThat(runs.get(0).phase()).isEqualTo(Phase.MEASURING);
          assertThat(getJson(base + "api/runs?active=true", new TypeReference<List<RunView>>() {}))
              .extracting(RunView::run).containsExactly("r1");

          JsonNode detail = getJson(base + "api/runs/r1", new TypeReference<>() {});
          assertThat(detail.path("run").path("metric").asText()).isEqualTo("rx_bps");
          assertThat(detail.path("run").path("steady").path("value").asDouble()).isEqualTo(9.0e9);
          assertThat(detail.path("run").path("planned").path("durationMs").asLong()).isEqualTo(30_000);
          assertThat(detail.path("series")).as("r1's own seconds only").hasSize(5);
          assertThat(detail.path("series").get(4).path("mean").asDouble()).isEqualTo(9.0e9 + 8);
          assertThat(detail.path("results").get(0).path("mean").asDouble()).isEqualTo(9.0e9);
          assertThat(get(base + "api/runs/nope").statusCode()).isEqualTo(404);

          assertThat(getJson(base + "api/plans", new TypeReference<List<String>>() {})).containsExactly("big", "small");
          JsonNode small = getJson(base + "api/results?plan=small", new TypeReference<>() {});
          assertThat(small).hasSize(1);
          assertThat(small.get(0).path("values").path("2").asDouble()).isEqualTo(4.2e9);
          HttpResponse<String> csv = get(base + "api/results?format=csv&download=true");
          assertThat(csv.headers().firstValue("content-type")).hasValue("text/csv; charset=utf-8");
          assertThat(csv.headers().firstValue("content-disposition"))
              .hasValue("attachment; filename=\"netpulse-results.csv\"");
          assertThat(csv.body().split("\r\n")).hasSize(3).anyMatch(l -> l.startsWith("small,small-20261201T100000Z,rx,rx_bps,bit/s,"));
          List<org.apache.commons.csv.CSVRecord> rows = org.apache.commons.csv.CSVFormat.RFC4180.builder().setHeader()
              .get().parse(new java.io.StringReader(csv.body())).getRecords();
          assertThat(rows).extracting(r -> r.get("plan")).containsExactly("big", "small");
          assertThat(rows.get(1).get("label_instance_type")).isEqualTo("c7.large, \"spot\"");
          assertThat(rows.get(1).get("label_image")).isEqualTo("ami-1;ami-2");
          assertThat(rows.get(0).get("label_image")).isEmpty();
          assertThat(get(base + "api/results?format=xml").statusCode()).isEqualTo(400);

          // plan names: their latest executions (DashboardCompareBrowserTest and the launcher's
          // CompareAgreesWithDashboardTest have executions and label selectors)
          JsonNode compare = getJson(base + "api/compare?a=small&b=big", new TypeReference<>() {});
          assertThat(compare.path("comparisons")).hasSize(1);
          assertThat(compare.path("comparisons").get(0).path("ratio").asDouble()).isCloseTo(9.0e9 / 4.1e9,
              org.assertj.core.data.Offset.offset(1e-9));
          // one repetition in B: no test, and the verdict says so
          assertThat(compare.path("comparisons").get(0).path("verdict").asText()).isEqualTo("not enough repetitions");
          assertThat(compare.path("comparisons").get(0).path("direction").asText()).isEqualTo("higher_is_better");
          assertThat(compare.path("a").path("execution").asText()).isEqualTo("small-20261201T100000Z");
          HttpResponse<String> noB = get(base + "api/compare?a=small");
          assertThat(noB.statusCode()).isEqualTo(400);
          assertThat(noB.body()).startsWith("400 Bad Request: b: missing");

          JsonNode hosts = getJson(base + "api/hosts", new TypeReference<>() {});
          assertThat(hosts.path("hosts").findValuesAsText("host")).containsExactly("other", "sut");
          assertThat(hosts.path("hosts").get(1).path("spark")).hasSize(6); // the fleet shows the host's whole last minute
          String fleet = fleetFeed.poll(10, TimeUnit.SECONDS);
          assertThat(fleet).as("a hosts event within a second or two").isNotNull().startsWith("hosts [");

          assertThat(get(base + "events?feed=nope").statusCode()).isEqualTo(400);
          Exposition metrics = Exposition.parse(get(base + "metrics").body());
          assertThat(metrics.value("netpulse_dashboard_records_total", Map.of("topic", "api.runs"))).isEqualTo(3);
          assertThat(metrics.value("netpulse_dashboard_records_total", Map.of("topic", "api.results"))).isEqualTo(2);
          assertThat(metrics.value("netpulse_dashboard_runs", Map.of())).isEqualTo(2);
          // 7 rows sent after the start, and not the one sent before it: metrics are read from the end
          assertThat(metrics.value("netpulse_dashboard_records_total", Map.of("topic", "api.metrics"))).isEqualTo(7);
        }
      }
    }
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** "EVENT DATA" strings of one SSE stream, read on a daemon thread. */
  private static BlockingQueue<String> sse(String url) throws Exception {
    HttpResponse<Stream<String>> response = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      String[] event = {null};
      try {
        response.body().forEach(line -> {
          if (line.startsWith("event: ")) {
            event[0] = line.substring("event: ".length());
          } else if (line.startsWith("data: ")) {
            out.add(event[0] + " " + line.substring("data: ".length()));
          }
        });
      } catch (java.io.UncheckedIOException closed) {
        // the dashboard closed at the end of the test
      }
    });
    reader.setDaemon(true);
    reader.start();
    return out;
  }

  private static List<String> drain(BlockingQueue<String> queue, int n) throws InterruptedException {
    List<String> out = new java.util.ArrayList<>();
    while (out.size() < n) {
      String e = queue.poll(15, TimeUnit.SECONDS);
      assertThat(e).as("SSE event %d of %d, got %s", out.size() + 1, n, out).isNotNull();
      out.add(e);
    }
    return out;
  }
}
