package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.compare.CompareJson;
import io.netpulse.common.compare.CompareReport;
import io.netpulse.common.compare.ExecutionResults;
import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.procedure.DryRun;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.remote.HostFacts;
import io.netpulse.launcher.remote.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JSON netpulse writes names its fields in camelCase, as the topics' records do: {@code run --format json},
 * {@code run --dry-run --format json} and {@code compare --format json} (also the dashboard's /api/compare). Each is
 * made with every optional part present and walked as serialized; a field name with {@code _} fails. Values (metric
 * names such as {@code rx_bps}, flags such as {@code cpu_saturated}) may have one.
 */
@Tag("unit")
class JsonFieldNamesTest {

  /** Fields whose value is a map keyed by data, not by field names: label, host, tool, variable, feature names. */
  private static final Set<String> DATA_KEYED = Set.of("labels", "tools", "failedRepetitions", "env", "offloads",
      "toolVersions");

  @Test
  void runOutputJsonHasCamelCaseFieldsOnly() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        labels: { instance_type: c7.large }
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        tests:
          - { type: rx_bandwidth, name: rx }
          - { type: concurrent_connections, name: cc }
          - { type: latency, name: lat }
        """);
    CpuUse.Cpu busiest = new CpuUse.Cpu("cpu1", 98.5, 100, 81.2, 0, 8);
    CpuUse.Cpu all = new CpuUse.Cpu("all", 64, 74, 20, 0.5, 0);
    CpuUse cpu = new CpuUse(CpuUse.SCHEMA, "r1", "p", "rx", 1, "p-x", "sut", 1_000, 11_000, 8, all, busiest,
        List.of(busiest), true, "cpu1 at least 95 % busy in 8 of 8 s");
    ResultEvent rx = new ResultEvent(ResultEvent.SCHEMA, "p", "rx", "rx_bps", "bit/s",
        new TreeMap<>(Map.of(1, 8e9, 2, 9e9)), 2, 8.5e9, 7e8, 6e9, List.of("sut"), List.of("r1", "r2"), 1L, "p-x",
        Map.of("instance_type", "c7.large"), null, false, 3, 2, RunEvent.INTERRUPTED, null);
    TestReport rxReport = new TestReport(plan.tests().get(0), List.of(
        new RepetitionOutcome("r1", 1, null, 1, 2, 500, null), new RepetitionOutcome("r2", 2, null, 3, 4, -1, null),
        new RepetitionOutcome("r3", 3, "interrupted", 0, 0, -1, null)), List.of(rx), null, List.of(),
        Map.of("r1", List.of(cpu)), List.of("sut", "peer"));
    ResultEvent estab = new ResultEvent(ResultEvent.SCHEMA, "p", "cc", "tcp_estab", "connections",
        new TreeMap<>(Map.of(1, 4003.0)), 1, 4003.0, null, null, List.of("sut"), List.of("r4"), 1L, "p-x",
        Map.of(), List.of(), true, 1, 1, null, null);
    TestReport ccReport = new TestReport(plan.tests().get(1), List.of(new RepetitionOutcome("r4", 1, null, 1, 2, -1,
        new RunEvent.Climb("client_ports", "client", "peer: client ports exhausted at 4000"))), List.of(estab), null,
        List.of());
    TestReport latReport = TestReport.notRun(plan.tests().get(2), "host sut: qperf missing");
    Machine machine = new Machine("Xeon", 2, 8_000_000L, "virtio_net", 2, 1500,
        Map.of("tcp-segmentation-offload", "on"), null);
    Map<String, HostFacts> hosts = Map.of("sut", new HostFacts("sut", Map.of("sar", "sysstat 12.6.1"), List.of(),
        "eth0", 2, 1024, 1048576, 9_000_000, "6.1.0", "boot-1", machine));
    ExecutionReport report = new ExecutionReport("p", "p-x", 1000, hosts, List.of(rxReport, ccReport, latReport),
        Map.of("instance_type", "c7.large"), true);

    JsonNode json = Json.mapper().readTree(Json.text(report.json(true)));

    // every optional part is there, so that a field added to any of them is walked too
    assertThat(json.get(0).path("asSeeds").isObject()).isTrue();
    assertThat(json.get(0).path("hostFacts").get(0).path("offloads").isObject()).isTrue();
    assertThat(json.get(0).path("repetitions").get(0).path("cpu").get(0).path("busiestCpu").isObject()).isTrue();
    assertThat(json.get(1).path("repetitions").get(0).path("climb").isObject()).isTrue();
    assertThat(json.get(2).path("error").isTextual()).isTrue();
    assertThat(snakeCaseFields(json)).isEmpty();
  }

  @Test
  void dryRunJsonOfEveryExamplePlanHasCamelCaseFieldsOnly() throws Exception {
    List<Path> examples;
    try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
      examples = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(examples).hasSizeGreaterThanOrEqualTo(6);
    boolean irqAffinity = false;
    for (Path example : examples) {
      JsonNode json = Json.mapper().readTree(Json.text(new DryRun(PlanLoader.load(example), new SutFacts("eth0", 8))
          .toJson()));
      irqAffinity |= json.findValue("irqAffinity") != null;
      assertThat(snakeCaseFields(json)).as(example.toString()).isEmpty();
    }
    assertThat(irqAffinity).as("some example binds IRQs (seed 001)").isTrue();
  }

  @Test
  void compareJsonHasCamelCaseFieldsOnly() throws Exception {
    ExecutionResults a = new ExecutionResults("a.json", "p", "p-a", Map.of("instance_type", "c7.large"), List.of(
        new ExecutionResults.Metric("rx", "rx_bps", "bit/s", new TreeMap<>(Map.of(1, 8e9, 2, 8.1e9, 3, 8.2e9))),
        new ExecutionResults.Metric("rx", "rx_pps", "packets/s", new TreeMap<>(Map.of(1, 1e5)))));
    ExecutionResults b = new ExecutionResults("b.json", "p", "p-b", Map.of("instance_type", "c7.xlarge"), List.of(
        new ExecutionResults.Metric("rx", "rx_bps", "bit/s", new TreeMap<>(Map.of(1, 6e9, 2, 6.1e9, 3, 6.2e9))),
        new ExecutionResults.Metric("crr", "connections_per_s", "connections/s", new TreeMap<>(Map.of(1, 1e4)))));

    JsonNode json = Json.mapper().readTree(Json.text(CompareJson.of(CompareReport.of(a, b), 5.0)));

    assertThat(json.path("onlyInA").size()).isEqualTo(1);
    assertThat(json.path("onlyInB").size()).isEqualTo(1);
    assertThat(json.path("failOnRegressionPct").asDouble()).isEqualTo(5.0);
    assertThat(snakeCaseFields(json)).isEmpty();
  }

  @Test
  void theWalkFindsNestedFieldsAndSkipsMapsKeyedByData() throws Exception {
    JsonNode json = Json.mapper().readTree("{\"a\":[{\"ok\":1,\"run_ids\":[{\"x_y\":2}]}],\"labels\":{\"x_y\":1}}");
    assertThat(snakeCaseFields(json)).containsExactly("a[0].run_ids", "a[0].run_ids[0].x_y");
  }

  /** Paths of the field names with an underscore, outside maps keyed by data ({@link #DATA_KEYED}). */
  private static List<String> snakeCaseFields(JsonNode json) {
    List<String> out = new ArrayList<>();
    walk(json, "", out);
    return out;
  }

  private static void walk(JsonNode node, String path, List<String> out) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), path + "[" + i + "]", out);
      }
    } else if (node.isObject()) {
      node.fields().forEachRemaining(f -> {
        String at = path.isEmpty() ? f.getKey() : path + "." + f.getKey();
        if (f.getKey().contains("_")) {
          out.add(at);
        }
        if (!DATA_KEYED.contains(f.getKey())) {
          walk(f.getValue(), at, out);
        }
      });
    }
  }
}
