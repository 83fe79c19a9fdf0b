package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Sources;
import io.netpulse.processor.ProcessorTopology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.netpulse.common.Topics;
import io.netpulse.common.event.HostInfo;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import io.netpulse.processor.TestDrivers;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schemas shipped in common (schemas/*.schema.json) against real serialized events: the
 * inputs as the collector and launcher write them, and every output topic of the whole topology
 * after a recorded run went through it.
 */
@Tag("unit")
class EventSchemaTest {

  private static final Topics TOPICS = Topics.defaults();
  /** Layouts past their first version (issue 14: provenance, results per execution). */
  private static final Map<String, Integer> VERSIONS = Map.of("run-event", 2, "result-event", 2, "run-value", 2,
      "line-block", 2);
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private static Schema schema(String name) throws Exception {
    try (InputStream in = EventSchemaTest.class.getResourceAsStream("/schemas/" + name + ".schema.json")) {
      assertThat(in).as("schema " + name + " is shipped").isNotNull();
      return REGISTRY.getSchema(in);
    }
  }

  private static void assertValid(String schemaName, List<String> values) throws Exception {
    Schema schema = schema(schemaName);
    assertThat(values).as(schemaName + " events produced").isNotEmpty();
    for (String value : values) {
      JsonNode node = Json.mapper().readTree(value);
      assertThat(schema.validate(node)).as(schemaName + ": " + value).isEmpty();
      assertThat(node.get("schema").asInt()).isEqualTo(VERSIONS.getOrDefault(schemaName, 1));
    }
  }

  @Test
  void everyTopicsValuesMatchTheirSchema() throws Exception {
    long t = Instant.parse("2026-11-30T05:48:56Z").toEpochMilli();
    String[] inputs;
    try (TopologyTestDriver driver = TestDrivers.uncached(new ProcessorTopology(TOPICS).build(), "schema-test")) {
      TestInputTopic<String, String> lines = input(driver, TOPICS.lines());
      TestInputTopic<String, String> runs = input(driver, TOPICS.runs());
      TestInputTopic<String, String> tools = input(driver, TOPICS.toolOutput());
      // the launcher's event (type, SUT, interface) and one without them
      String measuring = Json.text(RunEvent.ofRepetition("r1", "p", "rx_bandwidth", 1, Phase.MEASURING, t, null,
          "rx_bandwidth", "sut", "lo").withPlanLabels(Map.of("instance_type", "c7.large"), 1));
      // the PREPARING event carries the test's hosts' facts (schema 2)
      String preparing = Json.text(RunEvent.ofRepetition("r1", "p", "rx_bandwidth", 1, Phase.PREPARING, t - 1, null,
          "rx_bandwidth", "sut", "lo").withPlanLabels(Map.of("instance_type", "c7.large"), 1)
          .withHostFacts(List.of(new HostInfo("sut", "6.1.0", "Xeon", 2, 8_000_000L, "lo", "unknown", 1, 1, 65536,
              null, Map.of("sar", "sysstat version 12.6.1")))));
      runs.pipeInput("r1", preparing, t - 1);
      String done = Json.text(RunEvent.ofRepetition("r1", "p", "rx_bandwidth", 1, Phase.DONE, t + 10_000, "ok", null,
          null, null));
      runs.pipeInput("r1", measuring, t);
      long seq = 0;
      String firstLine = null;
      for (String line : new String(EventSchemaTest.class.getResourceAsStream(
          "/io/netpulse/processor/run/ramp-plateau.txt").readAllBytes()).lines().toList()) {
        String event = Json.text(LineEvent.of("sut", Sources.SAR_DEV, "r1", seq++, t, line));
        firstLine = firstLine == null ? event : firstLine;
        lines.pipeInput("sut", event, t);
      }
      // the launcher's CPU sampler on the SUT: /proc/stat's cpu lines each second, read 20 ms past it
      long read = t;
      for (String line : new String(EventSchemaTest.class.getResourceAsStream(
          "/io/netpulse/tools/proc/proc-stat-cpu1-burner.txt").readAllBytes()).lines().toList()) {
        if (line.startsWith("#")) {
          read += 1_000;
          continue;
        }
        lines.pipeInput("sut", Json.text(LineEvent.of("sut", "proc-stat", "r1", seq++, read + 20, line)), read + 20);
      }
      runs.pipeInput("r1", done, t + 10_000);
      String tool = Json.text(new ToolOutputEvent(ToolOutputEvent.SCHEMA, "r1", "tcp_crr", 1, "client", "client",
          "netperf", "p1", "netperf -t TCP_CRR", 0, Recorded.output("netperf/netperf-tcp-crr.txt"), "", t, t + 2000));
      tools.pipeInput("r1", tool, t + 2_000);
      lines.pipeInput("sut", "not json", t + 10_000);
      // a collector's block of lines: numbered in an epoch, the first after a restart stating its gap
      String collectorLine = Json.text(io.netpulse.common.event.LineBlock.of(List.of(
          new LineEvent(LineEvent.SCHEMA, "sut", "ss-summary", null, 1000, t, "Total: 180", null, t - 60_000, 10_810L),
          new LineEvent(LineEvent.SCHEMA, "sut", "ss-summary", null, 1001, t + 1,
              "TCP:   3 (estab 1, closed 0, orphaned 0, timewait 0)", null, t - 60_000, null))));
      // a concurrent-connections repetition's last event says what ended its climb
      String climbed = Json.text(RunEvent.ofRepetition("r2", "p", "concurrent_connections", 1, Phase.DONE, t + 10_000,
          null, "concurrent_connections", "sut", null).inExecution("p-20261130T054856Z", null)
          .withClimb(new RunEvent.Climb("client_ports", "client", "peer: client ports exhausted at 4000"))
          .withSharedWithNetpulse(List.of("sut", "peer"))); // its hosts are the machine netpulse runs on
      runs.pipeInput("r2", climbed, t + 10_000);
      inputs = new String[] {measuring, done, firstLine, tool, collectorLine, climbed};

      // Ctrl-C: the repetition under way FAILED with stopReason, and the result final with what was completed
      String interrupted = Json.text(RunEvent.ofRepetition("r3", "p", "rx_bandwidth", 2, Phase.FAILED, t,
          "interrupted (SIGINT/SIGTERM, e.g. Ctrl-C)", "rx_bandwidth", "sut", "lo").withPlanLabels(Map.of(), 3)
          .withStopReason(RunEvent.INTERRUPTED));
      // a repetition's measuring ended because its mean was known to the plan's precision
      String stopping = Json.text(RunEvent.ofRepetition("r4", "p", "rx_pps", 1, Phase.STOPPING, t, null, "rx_pps",
          "sut", "lo").withStopReason(RunEvent.STOP_PRECISE));
      assertValid("run-event", List.of(inputs[0], inputs[1], inputs[5], preparing, interrupted, stopping));
      assertValid("result-event", List.of(Json.text(new io.netpulse.common.event.ResultEvent(2, "p", "rx_bandwidth",
          "rx_bps", "bit/s", new java.util.TreeMap<>(Map.of(1, 1e9)), 1, 1e9, null, null, List.of("sut"),
          List.of("r3a"), t, "p-20261130T054856Z", Map.of(), List.of(), true, 3, 1, RunEvent.INTERRUPTED,
          new java.util.TreeMap<>(Map.of(1, new io.netpulse.common.event.ResultEvent.Stop(RunEvent.STOP_PRECISE,
              0.004)))))));
      assertValid("run-value", List.of(Json.text(new io.netpulse.common.event.RunValue(2, "r3", "p", "rx_bandwidth",
          2, "rx_bps", 0, "bit/s", null, "lo", 0, 0, t, "p-20261130T054856Z", Map.of(), List.of(), 3, true,
          RunEvent.INTERRUPTED, null)),
          Json.text(new io.netpulse.common.event.RunValue(2, "r3", "p", "rx_bandwidth", 2, "rx_bps", 1e9, "bit/s",
              "sut", "lo", 12, t - 12_000, t, "p-20261130T054856Z", Map.of(), List.of(), 3, null,
              RunEvent.STOP_DURATION, 0.012))));
      assertValid("line-event", List.of(inputs[2]));
      assertValid("line-block", List.of(inputs[4]));
      assertValid("tool-output-event", List.of(inputs[3]));
      List<String> rows = output(driver, TOPICS.metrics());
      assertValid("wide-sample", rows);
      // the samples the rows hold, as the run steps keep them in their stores
      List<String> samples = new java.util.ArrayList<>();
      for (String row : rows) {
        Json.read(row.getBytes(java.nio.charset.StandardCharsets.UTF_8), io.netpulse.common.event.WideSample.class)
            .samples().forEach(s -> samples.add(Json.text(s)));
      }
      assertValid("sample", samples);
      // the 10-s windows of the rows: the recording's 26 seconds close the SUT's first net windows
      List<String> windows = output(driver, TOPICS.windows());
      assertValid("wide-sample", windows);
      assertThat(windows).extracting(w -> Json.mapper().readTree(w).get("name").asText()).contains("net_10s");
      assertValid("steady-event", output(driver, TOPICS.steady()));
      // the precision criterion (issue 17): the lifecycle's thresholds that ask for it, and the event it gives
      assertValid("run-event", List.of(Json.text(RunEvent.ofRepetition("r4", "p", "rx_bandwidth", 1, Phase.WARMUP, t,
          null, "rx_bandwidth", "sut", "lo").inExecution("p-1", RunEvent.Steady.ofPrecision(10_000, 0.05, 0.005, 0.01,
          30_000)))));
      assertValid("steady-event", List.of(Json.text(new io.netpulse.common.event.SteadyEvent(
          io.netpulse.common.event.SteadyEvent.SCHEMA, "r4", "sut", "lo", "rx_bps", 1e9, "bit/s", 30_000, 0.02,
          t + 30_000, RunEvent.Steady.PRECISION, 0.008, t, t + 31_000))));
      List<String> results = output(driver, TOPICS.results());
      assertValid("result-event", results);
      assertThat(results).anyMatch(r -> r.contains("\"final\":true") && r.contains("\"instance_type\":\"c7.large\"")
          && r.contains("\"cpuModel\":\"Xeon\""));
      assertValid("result-event", output(driver, TOPICS.resultsLatest()));
      assertValid("dead-letter", output(driver, TOPICS.dlq()));
      assertValid("cpu-use", output(driver, TOPICS.cpu()));
    }
  }

  @Test
  void aSchemaRejectsAnEventThatLacksARequiredFieldOrHasAWrongType() throws Exception {
    Map<String, Object> sample = Map.of("schema", 1, "metric", "rx_bps", "value", "fast", "unit", "bit/s",
        "host", "h", "ts", 1, "source", Sources.SAR_DEV, "summary", false);
    assertThat(schema("sample").validate(Json.mapper().valueToTree(sample))).isNotEmpty();
    assertThat(schema("run-event").validate(Json.mapper().readTree("{\"schema\":1,\"run\":\"r\"}"))).isNotEmpty();
    assertThat(schema("run-event").validate(Json.mapper().readTree("{\"schema\":1,\"run\":\"r\",\"plan\":\"p\","
        + "\"test\":\"t\",\"repetition\":1,\"phase\":\"DONE\",\"ts\":1,\"type\":7}"))).isNotEmpty();
    assertThat(schema("run-event").validate(Json.mapper().readTree("{\"schema\":1,\"run\":\"r\",\"plan\":\"p\","
        + "\"test\":\"t\",\"repetition\":1,\"phase\":\"DONE\",\"ts\":1,\"climb\":{\"endedBy\":\"bored\","
        + "\"side\":\"sut\",\"detail\":\"\"}}"))).isNotEmpty();
    assertThat(schema("run-event").validate(Json.mapper().readTree("{\"schema\":2,\"run\":\"r\",\"plan\":\"p\","
        + "\"test\":\"t\",\"repetition\":1,\"phase\":\"FAILED\",\"ts\":1,\"stopReason\":\"bored\"}"))).isNotEmpty();
    assertThat(schema("run-event").validate(Json.mapper().readTree("{\"schema\":2,\"run\":\"r\",\"plan\":\"p\","
        + "\"test\":\"t\",\"repetition\":1,\"phase\":\"WARMUP\",\"ts\":1,\"steady\":{\"windowMs\":10000,"
        + "\"maxSpread\":0.05,\"maxRise\":0.005,\"criterion\":\"median\"}}"))).isNotEmpty();
  }

  private static TestInputTopic<String, String> input(TopologyTestDriver driver, String topic) {
    return driver.createInputTopic(topic, Serdes.String().serializer(), Serdes.String().serializer());
  }

  private static List<String> output(TopologyTestDriver driver, String topic) {
    return driver.createOutputTopic(topic, Serdes.String().deserializer(), Serdes.String().deserializer())
        .readValuesToList();
  }
}
