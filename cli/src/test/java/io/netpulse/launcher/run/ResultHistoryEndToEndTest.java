package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.common.event.HostInfo;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's history and provenance: one plan run twice on the namespace test hosts with different labels, through
 * one pipeline (this JVM's shared one, attached). A consumer that starts after both reads each execution's final result from
 * {@code results} with its labels and host facts, {@code results-latest} has the newer, and the store holds the
 * result points of both, tagged with their execution and labels.
 */
@Tag("root")
class ResultHistoryEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final String PLAN = "e2e-history";
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  @Test
  void twoExecutionsOfOnePlanKeepTheirOwnResultsWithLabelsAndHostFacts() throws Exception {
    SharedPipeline pipeline = SharedPipeline.get();
    String first = execution(pipeline, "c7.large");
    String second = execution(pipeline, "c7.xlarge");
    assertThat(second).isNotEqualTo(first);

    // a consumer that starts only now reads both executions' final results
    Map<String, ResultEvent> results = readAll(pipeline.bootstrapServers(), TOPICS.results(),
        m -> m.values().stream().filter(r -> r.finalResult() && PLAN.equals(r.plan())).count() >= 2);
    ResultEvent a = results.get(ResultEvent.key(PLAN, first, "rx_pps", "rx_pps"));
    ResultEvent b = results.get(ResultEvent.key(PLAN, second, "rx_pps", "rx_pps"));
    for (ResultEvent r : List.of(a, b)) {
      assertThat(r).as(results.keySet().toString()).isNotNull();
      assertThat(r.schema()).isEqualTo(ResultEvent.SCHEMA);
      assertThat(r.finalResult()).isTrue();
      assertThat(r.repetitionsPlanned()).isEqualTo(2);
      assertThat(r.repetitionsCompleted()).isEqualTo(2);
      assertThat(r.values()).containsOnlyKeys(1, 2);
      assertThat(r.labels()).containsEntry("region", "netns");
      assertThat(r.hostFacts()).extracting(HostInfo::host).contains("sut", "peer");
      HostInfo sut = r.hostFacts().stream().filter(h -> h.host().equals("sut")).findFirst().orElseThrow();
      assertThat(sut.kernel()).isEqualTo(System.getProperty("os.version"));
      assertThat(sut.vcpus()).isPositive();
      assertThat(sut.memoryKib()).isPositive();
      assertThat(sut.mtuBytes()).isPositive();
      assertThat(sut.nicDriver()).isNotBlank(); // veth has no device: "unknown"
      assertThat(sut.toolVersions()).containsKey("sar");
      // ethtool is installed where the tests run (bin/install-deps): the veth's offloads are known
      assertThat(sut.offloads()).as("offloads of " + sut.iface()).isNotNull()
          .containsKeys("tcp-segmentation-offload", "generic-receive-offload").hasSizeGreaterThan(40);
    }
    assertThat(a.labels()).containsEntry("instance_type", "c7.large");
    assertThat(b.labels()).containsEntry("instance_type", "c7.xlarge");

    Map<String, ResultEvent> latest = readAll(pipeline.bootstrapServers(), TOPICS.resultsLatest(),
        m -> m.containsKey(PLAN + "/rx_pps/rx_pps") && second.equals(m.get(PLAN + "/rx_pps/rx_pps").execution())
            && m.get(PLAN + "/rx_pps/rx_pps").finalResult());
    assertThat(latest.get(PLAN + "/rx_pps/rx_pps").labels()).containsEntry("instance_type", "c7.xlarge");

    // the shared pipeline's store writer (this plan's name is this test's alone): both executions' final results
    EmbeddedQuestDb store = pipeline.questDb();
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
        store.sql("select execution from netpulse_result where plan = '" + PLAN + "' and final = true")
            .stream().map(row -> row.get("execution")).distinct().count() == 2);
    List<Map<String, Object>> rows = store.sql("select execution, label_instance_type, label_region, mean, n "
        + "from netpulse_result where plan = '" + PLAN + "' and final = true");
    Map<Object, Object> labelByExecution = new LinkedHashMap<>();
    rows.forEach(row -> labelByExecution.put(row.get("execution"), row.get("label_instance_type")));
    assertThat(labelByExecution).containsEntry(first, "c7.large").containsEntry(second, "c7.xlarge");
    assertThat(rows).allMatch(row -> "netns".equals(row.get("label_region")));
    assertThat(rows).allMatch(row -> ((Number) row.get("n")).longValue() == 2);
  }

  /** One {@code netpulse run} of the plan labelled {@code instanceType}; returns its execution id. */
  private String execution(SharedPipeline pipeline, String instanceType) throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, PLAN, """
        labels: { instance_type: %s, region: netns }
        repetitions: 2
        stop: fixed
        warmup: 1s""".formatted(instanceType),
        "{ type: rx_pps, tool: iperf3, streams: 1, duration: 2s }");
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan, pipeline.runArgs());
    assertThat(run.exit()).as(run.stderr()).isZero();
    JsonNode r = Json.mapper().readTree(run.stdout()).get(0);
    // run --format json carries the same provenance
    assertThat(r.path("labels").path("instance_type").asText()).as(run.stdout()).isEqualTo(instanceType);
    assertThat(r.path("hostFacts").findValuesAsText("host")).contains("sut", "peer");
    assertThat(r.path("final").asBoolean()).as(run.stdout()).isTrue();
    assertThat(r.path("repetitionsCompleted").asInt()).isEqualTo(2);
    return r.path("execution").asText();
  }

  /** Every record of {@code topic} from its beginning, latest per key, read committed, until {@code done}. */
  private static Map<String, ResultEvent> readAll(String bootstrap, String topic,
      java.util.function.Predicate<Map<String, ResultEvent>> done) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "history-test-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    Map<String, ResultEvent> byKey = new LinkedHashMap<>();
    try (KafkaConsumer<String, ResultEvent> c = new KafkaConsumer<>(p, new StringDeserializer(),
        JsonSerde.of(ResultEvent.class).deserializer())) {
      c.subscribe(List.of(topic));
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ZERO).until(() -> {
        c.poll(Duration.ofMillis(500)).forEach(rec -> byKey.put(rec.key(), rec.value()));
        return done.test(byKey);
      });
    }
    return byKey;
  }
}
