package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.HostInfo;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunValue;
import io.netpulse.processor.TestDrivers;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ResultsTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final String VALUES = "test.run-values";

  private TopologyTestDriver driver;
  private TestInputTopic<String, RunValue> values;
  private TestOutputTopic<String, ResultEvent> results;
  private TestOutputTopic<String, ResultEvent> latestResults;

  @BeforeEach
  void setUp() {
    driver = TestDrivers.uncached(new ResultsTopology(TOPICS).build(VALUES), "results-test");
    values = TestDrivers.jsonInput(driver, VALUES, RunValue.class);
    results = TestDrivers.jsonOutput(driver, TOPICS.results(), ResultEvent.class);
    latestResults = TestDrivers.jsonOutput(driver, TOPICS.resultsLatest(), ResultEvent.class);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private void value(int repetition, double v, String host) {
    RunValue rv = new RunValue(RunValue.SCHEMA, "run-" + repetition, "plan-a", "rx_bandwidth", repetition, "rx_bps",
        v, "bit/s", host, "eth0", 10, 1000L * repetition, 1000L * repetition + 500, null, null, null, null, null, null, null);
    values.pipeInput(rv.resultKey(), rv);
  }

  private void value(String execution, int repetition, double v) {
    value(execution, repetition, v, java.util.Map.of("instance_type", "c7.large"), 2);
  }

  private void value(String execution, int repetition, double v, java.util.Map<String, String> labels,
      Integer planned) {
    RunValue rv = new RunValue(RunValue.SCHEMA, execution + "-r" + repetition, "plan-a", "rx_bandwidth", repetition,
        "rx_bps", v, "bit/s", "sut", "eth0", 10, 1000L * repetition, 1000L * repetition + 500, execution, labels,
        List.of(new HostInfo("sut", "6.1.0", "Xeon", 2, 8_000_000L, "eth0", "ena", 2, 2, 9001,
            java.util.Map.of("tcp-segmentation-offload", "on"), java.util.Map.of("iperf3", "iperf 3.12"))), planned,
                null, null, null);
    values.pipeInput(rv.resultKey(), rv);
  }

  @Test
  void eachExecutionKeepsItsOwnResultAndResultsLatestHasTheNewest() {
    value("plan-a-20261130T080000Z", 1, 10);
    value("plan-a-20261130T080000Z", 2, 12);
    List<ResultEvent> first = results.readValuesToList();
    assertThat(first).extracting(ResultEvent::finalResult).containsExactly(false, true);
    assertThat(first.get(1).repetitionsCompleted()).isEqualTo(2);
    assertThat(first.get(1).repetitionsPlanned()).isEqualTo(2);
    value("plan-a-20261130T090000Z", 1, 100, java.util.Map.of("instance_type", "c7.xlarge"), 2);
    ResultEvent fresh = results.readKeyValue().value;
    assertThat(fresh.n()).isEqualTo(1);
    assertThat(fresh.mean()).isEqualTo(100.0);
    assertThat(fresh.runs()).containsExactly("plan-a-20261130T090000Z-r1");
    assertThat(fresh.labels()).containsEntry("instance_type", "c7.xlarge");
    value("plan-a-20261130T080000Z", 2, 13); // a late correction of the old execution: under its own key only
    value("plan-a-20261130T090000Z", 2, 110, java.util.Map.of("instance_type", "c7.xlarge"), 2);
    java.util.Map<String, ResultEvent> byKey = new java.util.LinkedHashMap<>();
    results.readKeyValuesToList().forEach(kv -> byKey.put(kv.key, kv.value));
    ResultEvent old = byKey.get("plan-a/plan-a-20261130T080000Z/rx_bandwidth/rx_bps");
    assertThat(old.values()).containsExactly(java.util.Map.entry(1, 10.0), java.util.Map.entry(2, 13.0));
    assertThat(old.labels()).containsEntry("instance_type", "c7.large");
    assertThat(old.hostFacts()).extracting(HostInfo::nicDriver).containsExactly("ena");
    ResultEvent last = byKey.get("plan-a/plan-a-20261130T090000Z/rx_bandwidth/rx_bps");
    assertThat(last.values()).containsExactly(java.util.Map.entry(1, 100.0), java.util.Map.entry(2, 110.0));
    assertThat(last.mean()).isEqualTo(105.0);
    assertThat(last.finalResult()).isTrue();

    java.util.Map<String, ResultEvent> latest = new java.util.LinkedHashMap<>();
    latestResults.readKeyValuesToList().forEach(kv -> latest.put(kv.key, kv.value));
    assertThat(latest).containsOnlyKeys("plan-a/rx_bandwidth/rx_bps");
    assertThat(latest.get("plan-a/rx_bandwidth/rx_bps").execution()).isEqualTo("plan-a-20261130T090000Z");
    assertThat(latest.get("plan-a/rx_bandwidth/rx_bps").mean()).isEqualTo(105.0);
  }

  @Test
  void theLastPlannedRepetitionMakesTheResultFinalWhenAnEarlierOneFailed() {
    value("plan-a-20261130T080000Z", 1, 10, java.util.Map.of(), 3);
    value("plan-a-20261130T080000Z", 3, 12, java.util.Map.of(), 3); // repetition 2 failed: no value
    List<ResultEvent> out = results.readValuesToList();
    assertThat(out).extracting(ResultEvent::finalResult).containsExactly(false, true);
    assertThat(out.get(1).repetitionsCompleted()).isEqualTo(2);
    value("plan-b-20261130T080000Z", 1, 10, null, null); // an older launcher: planned unknown, never final
    assertThat(results.readValue().finalResult()).isFalse();
  }

  @Test
  void aFailedLastRepetitionMakesTheResultFinalAndATestWithoutValuesGivesNone() {
    value("plan-a-20261130T080000Z", 1, 10, java.util.Map.of(), 2);
    marker("plan-a-20261130T080000Z", 2); // repetition 2 of 2 failed
    List<ResultEvent> out = results.readValuesToList();
    assertThat(out).extracting(ResultEvent::finalResult).containsExactly(false, true);
    assertThat(out.get(1).n()).isEqualTo(1);
    assertThat(out.get(1).repetitionsCompleted()).isEqualTo(1);
    marker("plan-a-20261130T090000Z", 2); // every repetition failed: nothing to send
    assertThat(results.isEmpty()).isTrue();
    assertThat(latestResults.readValuesToList()).extracting(ResultEvent::execution)
        .containsOnly("plan-a-20261130T080000Z");
  }

  @Test
  void anInterruptedExecutionMakesTheResultFinalWithTheRepetitionsItCompletedAndSaysWhy() {
    String exec = "plan-a-20261201T080000Z";
    value(exec, 1, 10, java.util.Map.of(), 3);
    assertThat(results.readValue().finalResult()).isFalse();
    RunValue m = new RunValue(RunValue.SCHEMA, exec + "-r2", "plan-a", "rx_bandwidth", 2, "rx_bps", 0, "bit/s", null,
        "eth0", 0, 0, 3000, exec, java.util.Map.of(), List.of(), 3, true, RunEvent.INTERRUPTED, null);
    values.pipeInput(m.resultKey(), m);
    ResultEvent r = results.readValue();
    assertThat(r.finalResult()).isTrue();
    assertThat(r.repetitionsPlanned()).isEqualTo(3);
    assertThat(r.repetitionsCompleted()).isEqualTo(1);
    assertThat(r.values()).containsOnlyKeys(1);
    assertThat(r.stopReason()).isEqualTo(RunEvent.INTERRUPTED);
    assertThat(r.interrupted()).isTrue();
    assertThat(latestResults.readValuesToList()).last().extracting(ResultEvent::stopReason)
        .isEqualTo(RunEvent.INTERRUPTED);
    // a sample that reaches the processor late corrects repetition 1: still final, still interrupted
    value(exec, 1, 11, java.util.Map.of(), 3);
    ResultEvent corrected = results.readValue();
    assertThat(corrected.finalResult()).isTrue();
    assertThat(corrected.mean()).isEqualTo(11.0);
    assertThat(corrected.stopReason()).isEqualTo(RunEvent.INTERRUPTED);

    // an interrupt after the last planned repetition measured: complete, so no stop reason
    String done = "plan-a-20261201T090000Z";
    value(done, 1, 10, java.util.Map.of(), 2);
    value(done, 2, 12, java.util.Map.of(), 2);
    RunValue late = new RunValue(RunValue.SCHEMA, done + "-r2", "plan-a", "rx_bandwidth", 2, "rx_bps", 0, "bit/s",
        null, "eth0", 0, 0, 3000, done, java.util.Map.of(), List.of(), 2, true, RunEvent.INTERRUPTED, null);
    values.pipeInput(late.resultKey(), late);
    List<ResultEvent> out = results.readValuesToList();
    assertThat(out).last().satisfies(last -> {
      assertThat(last.finalResult()).isTrue();
      assertThat(last.repetitionsCompleted()).isEqualTo(2);
      assertThat(last.stopReason()).isNull();
    });
    // an ordinary result says nothing of a stop
    assertThat(out.get(0).stopReason()).isNull();
  }

  private void marker(String execution, int repetition) {
    RunValue m = new RunValue(RunValue.SCHEMA, execution + "-r" + repetition, "plan-a", "rx_bandwidth", repetition,
        "rx_bps", 0, "bit/s", null, "eth0", 0, 0, 1000, execution, java.util.Map.of(), List.of(), 2, true, null, null);
    values.pipeInput(m.resultKey(), m);
  }

  @Test
  void threeRepetitionsGiveMeanSampleStddevAndStudentTInterval() {
    value(1, 10, "sut");
    ResultEvent one = results.readValue();
    assertThat(one.n()).isEqualTo(1);
    assertThat(one.stddev()).isNull();
    assertThat(one.ci95()).isNull();
    value(2, 12, "sut");
    value(3, 14, "sut");
    List<ResultEvent> out = results.readValuesToList();
    ResultEvent r = out.get(out.size() - 1);
    assertThat(r.n()).isEqualTo(3);
    assertThat(r.mean()).isEqualTo(12.0);
    assertThat(r.stddev()).isCloseTo(2.0, within(1e-12)); // sqrt((4 + 0 + 4) / 2)
    // t(0.975, 2 df) = 4.302653 (tables): 4.302653 × 2 / √3 = 4.968275
    assertThat(r.ci95()).isCloseTo(4.968275, within(1e-5));
    assertThat(r.values()).containsExactly(
        java.util.Map.entry(1, 10.0), java.util.Map.entry(2, 12.0), java.util.Map.entry(3, 14.0));
    assertThat(r.key()).isEqualTo("plan-a//rx_bandwidth/rx_bps"); // an older producer's: no execution
    assertThat(r.latestKey()).isEqualTo("plan-a/rx_bandwidth/rx_bps");
    assertThat(r.hosts()).containsExactly("sut");
    assertThat(r.runs()).containsExactly("run-1", "run-2", "run-3");
    assertThat(r.unit()).isEqualTo("bit/s");
  }

  @Test
  void aRepetitionSeenAgainReplacesItsValueRatherThanCountingTwice() {
    value(1, 10, "sut");
    value(2, 20, "sut");
    value(2, 30, "sut"); // corrected by a late sample, or replayed after a restart
    List<ResultEvent> out = results.readValuesToList();
    ResultEvent r = out.get(out.size() - 1);
    assertThat(r.n()).isEqualTo(2);
    assertThat(r.mean()).isEqualTo(20.0);
  }

  @Test
  void eachRepetitionsStopReasonAndPrecisionAreInTheResult() {
    for (int rep = 1; rep <= 3; rep++) {
      RunValue rv = new RunValue(RunValue.SCHEMA, "run-" + rep, "plan-a", "rx_pps", rep, "rx_pps", 1000 + rep,
          "packets/s", "sut", "eth0", 20, 1000L * rep, 1000L * rep + 500, "plan-a-x", null, null, 3, null,
          rep == 2 ? RunEvent.STOP_DURATION : RunEvent.STOP_PRECISE, rep == 3 ? null : 0.002 * rep);
      values.pipeInput(rv.resultKey(), rv);
    }
    List<ResultEvent> out = results.readValuesToList();
    ResultEvent r = out.get(out.size() - 1);
    assertThat(r.finalResult()).isTrue();
    assertThat(r.stops()).containsExactly(
        java.util.Map.entry(1, new ResultEvent.Stop(RunEvent.STOP_PRECISE, 0.002)),
        java.util.Map.entry(2, new ResultEvent.Stop(RunEvent.STOP_DURATION, 0.004)),
        java.util.Map.entry(3, new ResultEvent.Stop(RunEvent.STOP_PRECISE, null)));
    // the JSON readers of results get them per repetition number, as values
    String json = new String(io.netpulse.common.json.Json.bytes(r), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(json).contains("\"stops\":{\"1\":{\"reason\":\"precise\",\"precision\":0.002}");
  }

  @Test
  void studentTQuantilesAgreeWithPublishedTables() {
    assertThat(ThreeRunStats.tQuantile975(1)).isCloseTo(12.7062, within(1e-4));
    assertThat(ThreeRunStats.tQuantile975(2)).isCloseTo(4.3027, within(1e-4));
    assertThat(ThreeRunStats.tQuantile975(4)).isCloseTo(2.7764, within(1e-4));
    assertThat(ThreeRunStats.tQuantile975(30)).isCloseTo(2.0423, within(1e-4));
  }
}
