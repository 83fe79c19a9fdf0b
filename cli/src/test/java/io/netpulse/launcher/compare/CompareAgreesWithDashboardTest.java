package io.netpulse.launcher.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.json.Json;
import io.netpulse.dashboard.Dashboard;
import io.netpulse.dashboard.DashboardConfig;
import io.netpulse.cli.CliRun;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's {@code /api/compare} and {@code netpulse compare --format json} on the same broker give the same
 * document, row for row (means ± CI, n, ratio, Welch's p, verdict, direction), for the same A and B given as
 * execution ids, label selectors or a plan's name; what names nothing, or is no selector, is one line from both:
 * a 4xx naming the field from the dashboard, exit 2 from the CLI. The results are two executions of one plan with
 * different labels, sent as the processor sends them: one result per repetition, keyed per execution, the last
 * final.
 */
@Tag("kafka")
class CompareAgreesWithDashboardTest {

  static final Topics TOPICS = new Topics("agree.");
  static final String PLAN = "qual";
  static final String LARGE = PLAN + "-20261201T100000Z";
  static final String XLARGE = PLAN + "-20261201T110000Z";
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;
  private String bootstrap;

  @Test
  void dashboardAndCliGiveTheSameRowsAndTheSameErrors() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, 0)) {
      kafka.createTopics(TOPICS, 2);
      bootstrap = kafka.bootstrapServers();
      long t0 = System.currentTimeMillis() - 3_600_000;
      List<ResultEvent> results = new ArrayList<>();
      // the link capped at 40 and then 80 Mbit/s: bandwidth and pps double, latency stays
      Map<String, String> large = Map.of("instance_type", "c7.large", "region", "eu-1");
      execution(results, LARGE, large, t0, Map.of(
          "rx_bandwidth/rx_bps", new double[] {38.1e6, 38.9e6, 37.6e6},
          "rx_pps/rx_pps", new double[] {3301, 3342, 3279},
          "latency/rtt_avg_ms", new double[] {0.081, 0.072, 0.090},
          "latency/tcp_lat_us", new double[] {31.2, 35.4, 29.9},
          "single/trans_per_s", new double[] {55051}));
      Map<String, String> xlarge = Map.of("instance_type", "c7.xlarge", "region", "eu-1");
      execution(results, XLARGE, xlarge, t0 + 600_000, Map.of(
          "rx_bandwidth/rx_bps", new double[] {76.4e6, 77.8e6, 75.9e6},
          "rx_pps/rx_pps", new double[] {6610, 6702, 6588},
          "latency/rtt_avg_ms", new double[] {0.079, 0.085, 0.070},
          "latency/tcp_lat_us", new double[] {30.8, 33.1, 34.0},
          "single/trans_per_s", new double[] {56102},
          "connections/connections_per_s", new double[] {4100, 4210, 4150}));
      send(kafka.bootstrapServers(), results);

      try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), TOPICS))) {
        String api = dashboard.url() + "api/";
        String[][] pairs = {
            {LARGE, XLARGE}, // execution ids
            {"instance_type=c7.large", "region=eu-1,instance_type=c7.xlarge"}, // label selectors
            {PLAN, LARGE}, // a plan's latest execution (XLARGE) against an execution: the other way round
        };
        for (String[] pair : pairs) {
          CliRun cli = cli(pair[0], pair[1]);
          assertThat(cli.exit()).as(cli.err()).isZero();
          JsonNode fromCli = Json.mapper().readTree(cli.out());
          String url = api + "compare?a=" + enc(pair[0]) + "&b=" + enc(pair[1]);
          // the dashboard reads the topic live: the same document once it has read all of it
          await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
              .untilAsserted(() -> assertThat(json(url)).as(url).isEqualTo(fromCli));
        }

        JsonNode byId = json(api + "compare?a=" + LARGE + "&b=" + XLARGE);
        assertThat(byId.path("a").path("labels").path("instance_type").asText()).isEqualTo("c7.large");
        assertThat(byId.path("b").path("labels").path("instance_type").asText()).isEqualTo("c7.xlarge");
        Map<String, JsonNode> rows = rows(byId);
        assertThat(rows).containsOnlyKeys("rx_bandwidth/rx_bps", "rx_pps/rx_pps", "latency/rtt_avg_ms",
            "latency/tcp_lat_us", "single/trans_per_s");
        for (String key : List.of("rx_bandwidth/rx_bps", "rx_pps/rx_pps")) {
          assertThat(rows.get(key).path("verdict").asText()).as(key).isEqualTo("better");
          assertThat(rows.get(key).path("ratio").asDouble()).as(key).isCloseTo(2.0, within(0.05));
          assertThat(rows.get(key).path("p").asDouble()).as(key).isLessThan(0.05);
          assertThat(rows.get(key).path("a").path("n").asInt()).as("the final result's repetitions").isEqualTo(3);
        }
        assertThat(rows.get("latency/rtt_avg_ms").path("verdict").asText()).isEqualTo("no significant difference");
        assertThat(rows.get("latency/rtt_avg_ms").path("direction").asText()).isEqualTo("lower_is_better");
        assertThat(rows.get("single/trans_per_s").path("verdict").asText()).isEqualTo("not enough repetitions");
        assertThat(byId.path("onlyInB").get(0).asText()).isEqualTo("connections/connections_per_s");
        // the plan's latest execution is the xlarge one: against large, bandwidth is worse
        JsonNode swapped = json(api + "compare?a=" + PLAN + "&b=" + LARGE);
        assertThat(swapped.path("a").path("execution").asText()).isEqualTo(XLARGE);
        assertThat(rows(swapped).get("rx_bandwidth/rx_bps").path("verdict").asText()).isEqualTo("worse");
        assertThat(swapped.path("onlyInA").get(0).asText()).isEqualTo("connections/connections_per_s");

        JsonNode executions = json(api + "executions");
        assertThat(executions.findValuesAsText("execution")).containsExactly(XLARGE, LARGE);
        assertThat(executions.get(1).path("labels").path("instance_type").asText()).isEqualTo("c7.large");
        assertThat(executions.get(0).path("metrics").asInt()).isEqualTo(6);

        // what names nothing or is no selector: a 4xx naming the field, the CLI's message, one line each
        String[][] bad = {
            // field, A, B, status, message
            {"a", "nope", PLAN, "404", "no results for 'nope' on agree.results: not an execution id, a plan name or "
                + "a label selector (KEY=VALUE) that it holds"},
            {"b", PLAN, "instance_type=m9.huge", "404", "no execution on agree.results has the labels "
                + "instance_type=m9.huge (labels come from the plan's 'labels:')"},
            {"b", PLAN, "instance_type=", "400", "label selector 'instance_type=': expected KEY=VALUE[,KEY=VALUE...], "
                + "got 'instance_type='"},
            {"a", "region=eu-1,,x=y", PLAN, "400", "label selector 'region=eu-1,,x=y': expected "
                + "KEY=VALUE[,KEY=VALUE...], got ''"}};
        for (String[] c : bad) {
          HttpResponse<String> r = get(api + "compare?a=" + enc(c[1]) + "&b=" + enc(c[2]));
          assertThat(r.statusCode()).as(r.body()).isEqualTo(Integer.parseInt(c[3]));
          assertThat(r.body()).as(c[1] + " " + c[2]).endsWith(": " + c[0] + ": " + c[4] + "\n")
              .doesNotContain("Exception", "\tat ");
          assertThat(r.body().strip().lines().count()).isEqualTo(1);
          CliRun cli = cli(c[1], c[2]);
          assertThat(cli.exit()).isEqualTo(2);
          assertThat(cli.err()).startsWith("netpulse: " + c[4]).doesNotContain("Exception", "\tat ");
          assertThat(cli.err().strip().lines().count()).isEqualTo(1);
        }
        HttpResponse<String> missing = get(api + "compare?b=" + PLAN);
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).startsWith("400 Bad Request: a: missing");
      }
    }
  }

  /** One execution's results as the processor sends them: an update per repetition, the last one final. */
  private static void execution(List<ResultEvent> out, String execution, Map<String, String> labels, long start,
      Map<String, double[]> values) {
    long ts = start;
    for (Map.Entry<String, double[]> e : new TreeMap<>(values).entrySet()) {
      String[] tm = e.getKey().split("/");
      double[] v = e.getValue();
      for (int n = 1; n <= v.length; n++) {
        ts += 20_000;
        TreeMap<Integer, Double> byRep = new TreeMap<>();
        double sum = 0;
        for (int i = 0; i < n; i++) {
          byRep.put(i + 1, v[i]);
          sum += v[i];
        }
        String unit = switch (tm[1]) {
          case "rx_bps" -> "bit/s";
          case "rx_pps" -> "packets/s";
          case "rtt_avg_ms" -> "ms";
          case "tcp_lat_us" -> "us";
          case "trans_per_s" -> "transactions/s";
          default -> "connections/s";
        };
        out.add(new ResultEvent(ResultEvent.SCHEMA, PLAN, tm[0], tm[1], unit, byRep, n, sum / n, null, null,
            List.of("sut"), List.of(execution + "-r" + n), ts, execution, labels, List.of(), n == v.length, v.length,
            n, null, null));
      }
    }
  }

  private static void send(String bootstrap, List<ResultEvent> results) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
        new StringSerializer())) {
      results.forEach(r -> producer.send(new ProducerRecord<>(TOPICS.results(), r.key(), Json.text(r))));
      producer.flush();
    }
  }

  private CliRun cli(String a, String b) {
    return CliRun.of("compare", a, b, "--format", "json", "--bootstrap-servers", bootstrap, "--topic-prefix",
        TOPICS.prefix(), "--timeout", "20");
  }

  /** A comparison's rows by test/metric. */
  private static Map<String, JsonNode> rows(JsonNode comparison) {
    Map<String, JsonNode> rows = new TreeMap<>();
    comparison.path("comparisons").forEach(r -> rows.put(r.path("test").asText() + "/" + r.path("metric").asText(), r));
    return rows;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(String url) throws Exception {
    HttpResponse<String> r = get(url);
    assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
    return Json.mapper().readTree(r.body());
  }
}
