package io.netpulse.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.netpulse.cli.Main;
import io.netpulse.common.Topics;
import io.netpulse.testbed.ChildJava;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/prometheus/prometheus.yml and the operations dashboard against the real services and Debian's Prometheus
 * 2.42 (bin/install-deps; compose runs prom/prometheus v3): {@code promtool check config} accepts the file as shipped,
 * and the processor (with the embedded QuestDB as its store), a collector agent and the dashboard, started as
 * {@code netpulse} commands against an embedded broker, are all scraped "up" by {@code prometheus} run with a copy of
 * that file, after which every panel query of operations.json returns at least one series, and the lines the
 * collector (sampler ss-summary) sends and one bad line the test sends show in Prometheus as the collector's and
 * the processor's line counters and one dead letter. About 25 s, most of it the broker, the store and three JVMs.
 *
 * <p>The copy differs from the shipped file only where this machine differs from compose: each job's targets (a DNS
 * name or a compose host) become 127.0.0.1 and the port the service got, each {@code credentials_file} (mounted by
 * compose, absent here) a temp file holding the token compose puts in it, and the scrape interval (and timeout,
 * which may not exceed it) is 1 s instead of 15 s so that rate() has two samples within seconds. Job names,
 * metrics paths and the authorization stay as shipped: a wrong one leaves a target down and fails here.
 *
 * <p>{@code promtool check config} refuses the shipped file here only because its credentials files do not exist
 * (they are compose configs): it is checked with --syntax-only, then in full as a copy whose credentials_file paths
 * point at temp files holding a token.
 */
@Tag("kafka")
class PrometheusLiveScrapeTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Token variable (docker-compose.yml) → the value this test gives it. */
  private static final Map<String, String> TOKENS = Map.of(
      "NETPULSE_METRICS_TOKEN", "metrics-token-" + Long.toHexString(System.nanoTime()),
      "NETPULSE_DASHBOARD_TOKEN", "dashboard-token-" + Long.toHexString(System.nanoTime()));
  /** Panel queries that cannot return a series here, with the reason; none so far. */
  private static final Map<String, String> NO_DATA_HERE = Map.of();

  @TempDir Path dir;

  @Test
  void promtoolAcceptsTheShippedConfig() throws Exception {
    Path shipped = RepoFiles.root().resolve(PrometheusScrapeTest.PROMETHEUS);
    Result syntax = promtool("check", "config", "--syntax-only", shipped.toString());
    assertThat(syntax.exit()).as(syntax.out()).isZero();
    // in full it stats the credentials files: compose mounts them, here they are missing, and only that may fail
    Result full = promtool("check", "config", shipped.toString());
    if (full.exit() != 0) {
      assertThat(full.out()).as("the only complaint about the shipped file is a missing compose-mounted token file")
          .containsPattern("error checking authorization credentials or bearer token file \"("
              + String.join("|", PrometheusScrapeTest.tokenFiles().keySet()) + ")\": stat .*: no such file");
    }
    ObjectNode config = (ObjectNode) RepoFiles.yaml(PrometheusScrapeTest.PROMETHEUS).deepCopy();
    pointCredentialsAtTempFiles(config);
    Path copy = write(config);
    Result withTokens = promtool("check", "config", copy.toString());
    assertThat(withTokens.exit()).as(withTokens.out()).isZero();
    assertThat(withTokens.out()).contains("SUCCESS");
  }

  @Test
  void prometheusScrapesEveryServiceAndEveryOperationsPanelQueryReturnsSeries() throws Exception {
    Topics topics = Topics.defaults();
    List<Process> started = new ArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
        EmbeddedQuestDb store = EmbeddedQuestDb.start(dir.resolve("questdb"), 0)) {
      // chosen once the broker and the store are bound, and distinct: a port chosen free before the broker started
      // was then chosen by the broker too (the processor: "cannot serve metrics on 127.0.0.1:21513")
      Map<String, Integer> ports = new TreeMap<>(); // job → port its service serves /metrics on
      for (String job : List.of("netpulse-processor", "netpulse-collector", "netpulse-dashboard")) {
        int port;
        do {
          port = PrometheusServer.freePort();
        } while (ports.containsValue(port));
        ports.put(job, port);
      }
      try { // the services stop while the broker still runs: without it their Kafka clients take long to close
        kafka.createTopics(topics, 1);
        String bootstrap = kafka.bootstrapServers();
        String metricsToken = TOKENS.get("NETPULSE_METRICS_TOKEN");
        started.add(netpulse("processor", "-Xmx256m", "processor", "--bootstrap-servers", bootstrap,
            "--data-dir", dir.resolve("processor").toString(), "--partitions", "1", "--application-id", "prom-live",
            "--influx-url", store.url(), "--metrics-port", ports.get("netpulse-processor").toString(),
            "--metrics-token", metricsToken));
        started.add(netpulse("collector", "-Xmx128m", "collector", "agent", "--host", "prom-live",
            "--samplers", "ss-summary", "--bootstrap-servers", bootstrap,
            "--data-dir", dir.resolve("collector").toString(),
            "--metrics-port", ports.get("netpulse-collector").toString(), "--metrics-token", metricsToken));
        started.add(netpulse("dashboard", "-Xmx128m", "dashboard", "--bootstrap-servers", bootstrap,
            "--dashboard-port", ports.get("netpulse-dashboard").toString(),
            "--dashboard-token", TOKENS.get("NETPULSE_DASHBOARD_TOKEN")));

        Path config = write(scrapingHere(ports));
        try (PrometheusServer prometheus = PrometheusServer.start(config, dir.resolve("prometheus"))) {
          awaitEveryTargetUp(prometheus, ports, started);
          // a scrape without the token is refused: "up" means each job sent the token its service requires
          for (int port : ports.values()) {
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).as("/metrics on " + port + " without a token")
                .isEqualTo(401);
          }
          // the collector's lines move the lines counters; one bad line moves the dead letters
          try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.connection().clientProperties(),
              new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topics.lines(), "bad", "not a line".getBytes(StandardCharsets.UTF_8)))
                .get(30, TimeUnit.SECONDS);
          }
          awaitEveryPanelQuery(prometheus, started);
        }
      } finally {
        stop(started);
      }
    }
  }

  /**
   * The shipped config with only what differs here rewritten: targets → 127.0.0.1:the service's port, credentials
   * files → temp files, scrape interval and timeout → 1 s.
   */
  private ObjectNode scrapingHere(Map<String, Integer> ports) throws IOException {
    ObjectNode config = (ObjectNode) RepoFiles.yaml(PrometheusScrapeTest.PROMETHEUS).deepCopy();
    ObjectNode global = config.has("global") ? (ObjectNode) config.get("global") : config.putObject("global");
    global.put("scrape_interval", "1s").put("scrape_timeout", "1s");
    for (JsonNode job : config.path("scrape_configs")) {
      Integer port = ports.get(job.path("job_name").asText());
      if (port == null) {
        fail(PrometheusScrapeTest.PROMETHEUS + ": job '" + job.path("job_name").asText() + "' scrapes no service "
            + "this test starts " + ports.keySet());
      }
      ObjectNode j = (ObjectNode) job;
      j.remove(List.of("dns_sd_configs", "static_configs", "scrape_interval", "scrape_timeout"));
      j.putArray("static_configs").addObject().putArray("targets").add("127.0.0.1:" + port);
    }
    pointCredentialsAtTempFiles(config);
    return config;
  }

  /** Every job of the config has a target and each is "up", or the test fails with Prometheus' last errors. */
  private void awaitEveryTargetUp(PrometheusServer prometheus, Map<String, Integer> jobs, List<Process> started)
      throws Exception {
    Map<String, String> notUp = new TreeMap<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    do {
      notUp.clear();
      jobs.keySet().forEach(job -> notUp.put(job, "no target"));
      for (JsonNode t : prometheus.activeTargets()) {
        String job = t.path("labels").path("job").asText();
        String error = t.path("lastError").asText();
        if ("up".equals(t.path("health").asText())) {
          notUp.remove(job);
        } else if (error.contains("server returned HTTP status 4")) {
          fail("job " + job + ": " + t.path("scrapeUrl").asText() + ": " + error + " (a wrong path or token in "
              + PrometheusScrapeTest.PROMETHEUS + ")\n" + logs(started));
        } else {
          notUp.put(job, t.path("scrapeUrl").asText() + " " + t.path("health").asText() + ": " + error);
        }
      }
      requireAlive(started);
      if (notUp.isEmpty()) {
        return;
      }
      Thread.sleep(500);
    } while (System.nanoTime() < deadline);
    fail("targets not up in 90 s: " + notUp + "\n" + logs(started) + "\nprometheus: " + prometheus.logTail());
  }

  /** Every panel's expr returns a series (rate() over 1 s scrapes needs two), and the bad line was counted. */
  private void awaitEveryPanelQuery(PrometheusServer prometheus, List<Process> started) throws Exception {
    Map<String, String> queries = new LinkedHashMap<>(); // "panel / refId" → expr
    for (JsonNode panel : JSON.readTree(RepoFiles.read(PrometheusScrapeTest.OPERATIONS)).path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.put(panel.path("title").asText() + " / " + target.path("refId").asText(),
            target.path("expr").asText());
      }
    }
    assertThat(queries).as(PrometheusScrapeTest.OPERATIONS + " panel queries").isNotEmpty();
    Map<String, String> empty = new TreeMap<>();
    Map<String, Double> moved = new TreeMap<>(); // counter → its sum as Prometheus has it: each must reach 1
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    do {
      empty.clear();
      for (Map.Entry<String, String> q : queries.entrySet()) {
        if (!NO_DATA_HERE.containsKey(q.getKey()) && prometheus.query(q.getValue()).isEmpty()) {
          empty.put(q.getKey(), q.getValue());
        }
      }
      for (String counter : List.of("netpulse_collector_lines_sent_total", "netpulse_processor_lines_total",
          "netpulse_processor_dead_letters_total")) {
        JsonNode sum = prometheus.query("sum(" + counter + ")");
        moved.put(counter, sum.isEmpty() ? 0 : sum.path(0).path("value").path(1).asDouble());
      }
      requireAlive(started);
      if (empty.isEmpty() && moved.values().stream().allMatch(v -> v >= 1)) {
        return;
      }
      Thread.sleep(1000);
    } while (System.nanoTime() < deadline);
    fail("in 60 s: panel queries with no series " + empty + "; counters as Prometheus saw them " + moved
        + "\n" + logs(started));
  }

  /** Each credentials_file → a temp file holding the token compose mounts at that path. */
  private void pointCredentialsAtTempFiles(ObjectNode config) throws IOException {
    Map<String, String> variableAt = PrometheusScrapeTest.tokenFiles();
    for (JsonNode job : config.path("scrape_configs")) {
      JsonNode auth = job.path("authorization");
      String file = auth.path("credentials_file").asText("");
      if (file.isEmpty()) {
        continue;
      }
      String token = TOKENS.get(variableAt.get(file));
      assertThat(token).as(PrometheusScrapeTest.PROMETHEUS + ": job " + job.path("job_name").asText()
          + " credentials_file " + file + " is no token file compose mounts " + variableAt).isNotNull();
      Path copy = dir.resolve("token-" + Path.of(file).getFileName());
      Files.writeString(copy, token);
      ((ObjectNode) auth).put("credentials_file", copy.toString());
    }
  }

  private Path write(ObjectNode config) throws IOException {
    Path file = Files.createTempFile(dir, "prometheus-", ".yml");
    new YAMLMapper().writeValue(file.toFile(), config);
    return file;
  }

  private record Result(int exit, String out) {}

  private Result promtool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "promtool-", ".txt");
    Process p = PrometheusServer.run(command, out);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("promtool exits").isTrue();
    return new Result(p.exitValue(), Files.readString(out));
  }

  /** {@code netpulse ARGS} in its own JVM, configured by its options only, its output in NAME.log. */
  private Process netpulse(String name, String heap, String... args) throws IOException {
    List<String> command = ChildJava.command(heap, "-cp", System.getProperty("java.class.path"), Main.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("NETPULSE_"));
    return pb.start();
  }

  private void requireAlive(List<Process> started) {
    for (Process p : started) {
      if (!p.isAlive()) {
        fail("a service exited " + p.exitValue() + "\n" + logs(started));
      }
    }
  }

  private String logs(List<Process> started) {
    StringBuilder b = new StringBuilder();
    for (String name : List.of("processor", "collector", "dashboard")) {
      try {
        List<String> lines = Files.readAllLines(dir.resolve(name + ".log"));
        b.append("--- ").append(name).append(".log (last 15 lines)\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))).append('\n');
      } catch (IOException e) {
        b.append("--- ").append(name).append(": no log\n");
      }
    }
    return b.toString();
  }

  /** SIGTERM to all at once (each closes its Kafka clients), then waits; forcibly after 30 s. */
  private static void stop(List<Process> started) throws InterruptedException {
    started.forEach(Process::destroy);
    for (Process p : started) {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
