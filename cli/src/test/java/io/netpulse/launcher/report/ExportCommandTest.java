package io.netpulse.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse export} against a real embedded broker holding what an execution leaves ({@link ReportFixture}),
 * plus labels and host facts on a run event as newer launchers write them, tool output, and labelled results of
 * another plan: the archive holds the execution, {@code report FILE} renders it as the topics did, and
 * {@code compare} reads archives, plans, execution ids and label selectors.
 */
@Tag("kafka")
class ExportCommandTest {

  static final Topics TOPICS = new Topics("exp.");

  @TempDir static Path dir;
  static EmbeddedKafka kafka;

  @BeforeAll
  static void broker() {
    kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
    kafka.createTopics(TOPICS, 2);
    new ReportFixture(TOPICS).write(kafka.bootstrapServers());
    List<ProducerRecord<String, String>> extra = new ArrayList<>();
    String run11 = ReportFixture.run(1, 1);
    // a newer launcher's event: labels and host facts (fields this build's RunEvent does not have)
    extra.add(new ProducerRecord<>(TOPICS.runs(), run11, "{\"schema\":2,\"run\":\"" + run11 + "\",\"plan\":\""
        + ReportFixture.PLAN + "\",\"test\":\"latency\",\"repetition\":1,\"phase\":\"DONE\",\"ts\":1,"
        + "\"labels\":{\"instance_type\":\"c7.large\",\"region\":\"eu-1\"},"
        + "\"hostFacts\":[{\"host\":\"sut\",\"kernel\":\"6.1.0\",\"vcpus\":2}]}"));
    extra.add(new ProducerRecord<>(TOPICS.toolOutput(), run11, Json.text(new ToolOutputEvent(1, run11, "latency", 1,
        "peer", "client", "ping", "1", "ping -c 3 sut", 0, "rtt min/avg/max/mdev = 0.1/0.115/0.2/0.01 ms\n", "", 1,
        2))));
    extra.add(new ProducerRecord<>(TOPICS.toolOutput(), "someone-else", Json.text(new ToolOutputEvent(1,
        "someone-else", "latency", 1, "peer", "client", "ping", "1", "ping", 0, "x", "", 1, 2))));
    // another plan's two executions, labelled, as results kept per execution carry them (instance types of their
    // own: the fixture's plan is labelled c7.large too, and a selector takes the latest execution that matches)
    extra.add(labelled("lab-a", "m7.large", 1000, "19100000, \"2\": 20300000, \"3\": 18700000"));
    extra.add(labelled("lab-b", "m7.xlarge", 2000, "39200000, \"2\": 40100000, \"3\": 38800000"));
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
        new StringSerializer())) {
      extra.forEach(producer::send);
      producer.flush();
    }
  }

  private static ProducerRecord<String, String> labelled(String execution, String type, long ts, String values) {
    return new ProducerRecord<>(TOPICS.results(), "lab/" + execution + "/bw/rx_bps", "{\"schema\":2,\"plan\":\"lab\","
        + "\"test\":\"bw\",\"metric\":\"rx_bps\",\"unit\":\"bit/s\",\"values\":{\"1\": " + values + "},\"n\":3,"
        + "\"mean\":0,\"ts\":" + ts + ",\"execution\":\"" + execution + "\",\"labels\":{\"instance_type\":\"" + type
        + "\"}}");
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static CliRun netpulse(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--bootstrap-servers", kafka.bootstrapServers(), "--timeout", "20", "--topic-prefix",
        TOPICS.prefix()));
    return CliRun.of(all.toArray(String[]::new));
  }

  private static Path export(String name) {
    Path file = dir.resolve(name);
    CliRun r = netpulse("export", ReportFixture.EXECUTION, "-o", file.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("archive " + file.toAbsolutePath() + " (execution " + ReportFixture.EXECUTION
        + " of plan " + ReportFixture.PLAN + ", 6 results, 1 tool outputs)");
    return file;
  }

  @Test
  void theArchiveHoldsTheExecutionWithLabelsHostFactsAndToolOutput() throws Exception {
    JsonNode a = Json.mapper().readTree(export("holds.json").toFile());
    try (java.io.InputStream schema = Archive.class.getResourceAsStream("/schemas/archive.schema.json")) {
      var validator = com.networknt.schema.SchemaRegistry.withDefaultDialect(
          com.networknt.schema.SpecificationVersion.DRAFT_2020_12).getSchema(schema);
      assertThat(validator.validate(a)).isEmpty();
      assertThat(validator.validate(Json.mapper().readTree("{\"format\":\"netpulse-archive\",\"schema\":1}")))
          .isNotEmpty();
    }
    assertThat(a.path("format").asText()).isEqualTo("netpulse-archive");
    assertThat(a.path("schema").asInt()).isEqualTo(1);
    assertThat(a.path("plan").asText()).isEqualTo(ReportFixture.PLAN);
    assertThat(a.path("execution").asText()).isEqualTo(ReportFixture.EXECUTION);
    assertThat(a.path("labels").path("instance_type").asText()).isEqualTo("c7.large");
    assertThat(a.path("hostFacts").path("sut").path("kernel").asText()).isEqualTo("6.1.0");
    assertThat(a.path("toolOutput")).hasSize(1);
    assertThat(a.path("toolOutput").get(0).path("stdout").asText()).contains("rtt min/avg/max");
    JsonNode sections = a.path("sections");
    assertThat(sections).hasSize(6);
    JsonNode bw = null;
    for (JsonNode s : sections) {
      bw = s.path("result").path("metric").asText().equals("rx_bps") ? s : bw;
    }
    assertThat(bw.path("result").path("values").path("2").asDouble()).isEqualTo(358195582.3);
    assertThat(bw.path("result").path("runs")).hasSize(3);
    assertThat(bw.path("repetitions")).hasSize(3);
    assertThat(bw.path("perSecondMetric").asText()).isEqualTo("rx_bps");
    assertThat(bw.path("series")).hasSize(3);
    assertThat(bw.path("series").get(0).path("points").size()).isBetween(10, 11);
  }

  @Test
  void reportOfTheArchiveIsTheReportOfTheTopics() throws Exception {
    Path archive = export("report.json");
    for (String format : List.of("md", "csv")) {
      CliRun live = netpulse("report", ReportFixture.PLAN, "--format", format, "--output", "-");
      CliRun file = CliRun.of("report", archive.toString(), "--format", format, "--output", "-");
      assertThat(file.exit()).as(file.err()).isZero();
      assertThat(withoutReadTime(file.out())).isEqualTo(withoutReadTime(live.out()));
    }
    Path liveHtml = dir.resolve("live.html");
    Path fileHtml = dir.resolve("file.html");
    assertThat(netpulse("report", ReportFixture.PLAN, "--output", liveHtml.toString()).exit()).isZero();
    CliRun html = CliRun.of("report", archive.toString(), "--output", fileHtml.toString());
    assertThat(html.exit()).as(html.err()).isZero();
    JsonNode liveData = chartData(liveHtml);
    JsonNode fileData = chartData(fileHtml);
    assertThat(fileData.path("sections")).isEqualTo(liveData.path("sections")); // the charts' series and bars
  }

  @Test
  void compareReadsArchivesPlansExecutionsAndLabelSelectors() throws Exception {
    Path archive = export("compare.json");
    CliRun same = CliRun.of("compare", archive.toString(), archive.toString(), "--fail-on-regression", "0");
    assertThat(same.exit()).as(same.err()).isZero();
    assertThat(same.out()).contains("A: execution " + ReportFixture.EXECUTION + ", plan " + ReportFixture.PLAN
        + ", labels instance_type=c7.large,region=eu-1 (" + archive + ")");
    assertThat(same.out()).contains("no significant difference (higher is better)");

    CliRun topic = netpulse("compare", archive.toString(), ReportFixture.PLAN, "--format", "json");
    assertThat(topic.exit()).as(topic.err()).isZero();
    JsonNode t = Json.mapper().readTree(topic.out());
    assertThat(t.path("b").path("execution").asText()).isEqualTo(ReportFixture.EXECUTION);
    assertThat(t.path("comparisons")).hasSize(6);

    CliRun labels = netpulse("compare", "instance_type=m7.large", "instance_type=m7.xlarge", "--format", "json");
    assertThat(labels.exit()).as(labels.err()).isZero();
    JsonNode l = Json.mapper().readTree(labels.out());
    assertThat(l.path("a").path("execution").asText()).isEqualTo("lab-a");
    assertThat(l.path("b").path("labels").path("instance_type").asText()).isEqualTo("m7.xlarge");
    assertThat(l.path("comparisons").get(0).path("verdict").asText()).isEqualTo("better");

    // a plan's name: its latest execution; an execution id: that one
    CliRun gate = netpulse("compare", "lab", "lab-a", "--fail-on-regression", "10");
    assertThat(gate.exit()).as(gate.out() + gate.err()).isEqualTo(1);
    assertThat(gate.out()).contains("A: execution lab-b, plan lab", "B: execution lab-a, plan lab", "REGRESSION");
  }

  @Test
  void whatTheTopicsDoNotHoldIsOneLineAndExitTwo() {
    CliRun export = netpulse("export", "no-such-execution", "-o", dir.resolve("x.json").toString());
    assertThat(export.exit()).isEqualTo(2);
    assertThat(export.err()).startsWith("netpulse: no results of execution 'no-such-execution' on exp.results");
    assertThat(Files.exists(dir.resolve("x.json"))).isFalse();
    CliRun compare = netpulse("compare", "lab", "nothing-like-it");
    assertThat(compare.exit()).isEqualTo(2);
    assertThat(compare.err()).startsWith("netpulse: no results for 'nothing-like-it' on exp.results");
    CliRun selector = netpulse("compare", "lab", "instance_type=");
    assertThat(selector.exit()).isEqualTo(2);
    assertThat(selector.err()).contains("expected KEY=VALUE");
    CliRun unwritable = netpulse("export", ReportFixture.EXECUTION, "-o", dir.resolve("no/such/dir.json").toString());
    assertThat(unwritable.exit()).isEqualTo(2);
    assertThat(unwritable.err()).contains("cannot write").doesNotContain("\tat ");
  }

  @Test
  void reportOfAJsonFileThatIsNoArchiveIsOneLineAndExitTwo() throws Exception {
    Path other = dir.resolve("results.json");
    Files.writeString(other, "[{\"test\":\"t\"}]");
    CliRun r = CliRun.of("report", other.toString(), "--format", "md");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("netpulse: " + other + ": not a netpulse archive (no \"format\": "
        + "\"netpulse-archive\"; write one with 'netpulse export EXECUTION -o FILE')");
  }

  private static String withoutReadTime(String report) {
    return report.lines().filter(l -> !l.contains(" read at ")).reduce("", (x, y) -> x + y + "\n");
  }

  private static JsonNode chartData(Path html) throws Exception {
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"report-data\">(.*?)</script>", Pattern.DOTALL)
        .matcher(Files.readString(html));
    assertThat(m.find()).isTrue();
    return Json.mapper().readTree(m.group(1));
  }
}
