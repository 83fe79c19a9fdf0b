package io.netpulse.launcher.run;

import io.netpulse.testbed.ChildJava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.testbed.netns.ProcessTree;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.cli.Main;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.StoreWriter;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code netpulse run PLAN} (a child JVM, its embedded pipeline and store) during the second of three
 * repetitions: everything it started is stopped, and the first repetition is not lost. The test's result on
 * {@code results} is final with 1 of 3 repetitions and says "interrupted", as do the run event of the repetition under
 * way, the store's result row and the CLI's report; the third repetition never starts; the exit status is 130.
 */
@Tag("root")
class RunInterruptedTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final String PLAN = "interrupted";
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  @Test
  void ctrlCInTheSecondOfThreeRepetitionsPublishesAFinalResultMarkedInterrupted() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, PLAN, "repetitions: 3\nstop: fixed\nwarmup: 1s",
        "{ type: rx_pps, name: pps, tool: iperf3, streams: 1, duration: 12s }");
    Path stdout = dir.resolve("stdout.txt");
    Path stderr = dir.resolve("stderr.txt");
    Path data = dir.resolve("data");
    Set<String> namespacesBefore = namespaces();
    // what an interrupted run leaves, not its figures: the flood capped (RunEndToEndTest.SENDERS_CAP)
    LinkCap.Both cap = LinkCap.sendersOf(HOSTS, RunEndToEndTest.SENDERS_CAP);
    Process child;
    try {
      child = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"),
        Main.class.getName(),
        "run", plan.toString(), "--format=json", "--data-dir=" + data, "--result-timeout=60"))
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    } catch (java.io.IOException | RuntimeException e) {
      cap.close();
      throw e;
    }
    List<ProcessHandle> descendants = new ArrayList<>();
    try {
      await("repetition 2 measuring: repetition 1 done, iperf3 and sar running again")
          .atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertThat(child.isAlive()).as("child ended early:\n" + Files.readString(stderr)).isTrue();
            return Files.readString(stderr).contains("rep 1/3: done")
                && RunEndToEndTest.commandsIn(HOSTS.peer().namespace()).contains("iperf3")
                && RunEndToEndTest.commandsIn(HOSTS.sut().namespace()).containsAll(List.of("iperf3", "sar"));
          });
      Thread.sleep(3_000); // past the 1-s warm-up, into the measuring window
      assertThat(Files.readString(stderr)).doesNotContain("rep 2/3: done", "rep 3/3");
      child.descendants().forEach(descendants::add);
      // SIGINT, as Ctrl-C in a terminal delivers it (Process.destroy() would send TERM)
      assertThat(new ProcessBuilder("kill", "-INT", String.valueOf(child.pid())).start().waitFor()).isZero();
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("child exits after SIGINT:\n" + Files.readString(stderr))
          .isTrue();
    } finally {
      if (child.isAlive()) {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      cap.close();
    }
    String err = Files.readString(stderr);
    String out = Files.readString(stdout);
    System.err.println(err);
    assertThat(child.exitValue()).as("the JVM's status for SIGINT, as documented").isEqualTo(130);

    // nothing left: no tool in the namespaces, no process of the child's, no namespace of its own
    await("no tool left in the namespaces").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> RunEndToEndTest.assertNothingLeft(HOSTS));
    // a zombie has exited: this machine's init reaps orphans only every 1.5-2 s
    assertThat(descendants).noneMatch(h -> ProcessTree.isAlive(h.pid()));
    // the run makes none; other test JVMs on this machine make and remove theirs meanwhile (named by their PID)
    Set<String> added = new java.util.TreeSet<>(namespaces());
    added.removeAll(namespacesBefore);
    assertThat(added).allSatisfy(ns -> assertThat(ns).doesNotStartWith("np-" + child.pid() + "-")
        .doesNotStartWith("np-" + ProcessHandle.current().pid() + "-"));

    // the CLI: the report on stdout has the final result with the completed repetition, and says why
    assertThat(err).contains("test 1 (pps): interrupted after 1 of 3 repetition(s)");
    JsonNode report = Json.mapper().readTree(out);
    assertThat(report).as(out).hasSize(1);
    JsonNode r = report.get(0);
    assertThat(r.path("final").asBoolean()).as(out).isTrue();
    assertThat(r.path("stopReason").asText()).isEqualTo("interrupted");
    assertThat(r.path("repetitionsPlanned").asInt()).isEqualTo(3);
    assertThat(r.path("repetitionsCompleted").asInt()).isEqualTo(1);
    assertThat(r.path("runs")).hasSize(1);
    assertThat(r.path("mean").asDouble()).isPositive();
    String execution = r.path("execution").asText();

    // the child's broker data, opened again here: what did the run publish before it ended?
    try (EmbeddedKafka kafka = EmbeddedKafka.start(data, 0);
         EmbeddedQuestDb store = EmbeddedQuestDb.start(data.resolve("questdb"), 0)) {
      List<RunEvent> events = read(kafka, TOPICS.runs(), JsonSerde.of(RunEvent.class).deserializer(),
          l -> l.stream().anyMatch(e -> e.phase() == RunEvent.Phase.FAILED));
      RunEvent failed = events.stream().filter(e -> e.phase() == RunEvent.Phase.FAILED).findFirst().orElseThrow();
      assertThat(failed.repetition()).isEqualTo(2);
      assertThat(failed.stopReason()).isEqualTo(RunEvent.INTERRUPTED);
      assertThat(failed.reason()).startsWith("interrupted (SIGINT/SIGTERM");
      assertThat(events).filteredOn(e -> e.phase() == RunEvent.Phase.DONE).extracting(RunEvent::repetition)
          .containsExactly(1);
      assertThat(events).extracting(RunEvent::repetition).as("repetition 3 never started").doesNotContain(3);

      List<ResultEvent> results = read(kafka, TOPICS.results(), JsonSerde.of(ResultEvent.class).deserializer(),
          l -> l.stream().anyMatch(ResultEvent::finalResult));
      ResultEvent last = results.get(results.size() - 1);
      assertThat(last.execution()).isEqualTo(execution);
      assertThat(last.finalResult()).isTrue();
      assertThat(last.stopReason()).isEqualTo(RunEvent.INTERRUPTED);
      assertThat(last.repetitionsPlanned()).isEqualTo(3);
      assertThat(last.repetitionsCompleted()).isEqualTo(1);
      assertThat(last.values()).containsOnlyKeys(1);
      assertThat(last.mean()).isEqualTo(r.path("mean").asDouble());
      assertThat(results).filteredOn(ResultEvent::finalResult).allMatch(ResultEvent::interrupted);

      // the store: the child's writer may have been closed before it wrote the last result; one started now goes
      // on from its committed offsets, as the next netpulse would
      try (InfluxStore influx = new InfluxStore(store.url(), "unused".toCharArray(), "netpulse", "netpulse");
           StoreWriter writer = new StoreWriter(kafka.connection(), TOPICS, influx)) {
        writer.start();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions().until(() ->
            !store.sql("select n from netpulse_result where plan = '" + PLAN + "' and final = true").isEmpty());
      }
      List<Map<String, Object>> rows = store.sql("select execution, n, final, stop_reason from netpulse_result "
          + "where plan = '" + PLAN + "' and final = true");
      assertThat(rows).hasSize(1);
      assertThat(rows.get(0)).containsEntry("execution", execution).containsEntry("stop_reason", "interrupted");
      assertThat(((Number) rows.get(0).get("n")).longValue()).isEqualTo(1);
    }
  }

  private static Set<String> namespaces() throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
    Set<String> names = new java.util.TreeSet<>();
    new String(p.getInputStream().readAllBytes()).lines().map(l -> l.split(" ")[0]).filter(s -> !s.isBlank())
        .forEach(names::add);
    p.waitFor();
    return names;
  }

  /** Every record of {@code topic} from its beginning, in order, read committed, until {@code done} (or 60 s). */
  private static <T> List<T> read(EmbeddedKafka kafka, String topic, Deserializer<T> values,
      java.util.function.Predicate<List<T>> done) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "interrupted-test-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<T> all = new ArrayList<>();
    try (KafkaConsumer<String, T> c = new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      c.subscribe(List.of(topic));
      long deadline = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < deadline && !done.test(all)) {
        c.poll(Duration.ofMillis(500)).forEach(rec -> all.add(rec.value()));
      }
      c.poll(Duration.ofSeconds(2)).forEach(rec -> all.add(rec.value())); // a later record would be seen too
    }
    return all;
  }
}
