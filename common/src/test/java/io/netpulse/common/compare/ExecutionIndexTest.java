package io.netpulse.common.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.event.ResultEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one lookup of executions that {@code netpulse compare} and the dashboard share: execution ids, plan names (their
 * latest execution) and label selectors, the order of metrics whatever order the records came in, and the messages
 * for what names nothing.
 */
@Tag("unit")
class ExecutionIndexTest {

  private static final String T = "np.results";

  private static ResultEvent result(String plan, String execution, String test, String metric, long ts,
      Map<String, String> labels, double... values) {
    TreeMap<Integer, Double> byRep = new TreeMap<>();
    for (int i = 0; i < values.length; i++) {
      byRep.put(i + 1, values[i]);
    }
    return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, "bit/s", byRep, values.length, 0, null, null,
        List.of("sut"), List.of(), ts, execution, labels, List.of(), false, 3, values.length, null, null);
  }

  private static void add(ExecutionIndex index, ResultEvent r) {
    index.add(r.key(), r);
  }

  private static ExecutionIndex twoExecutionsAndAnotherPlan() {
    ExecutionIndex index = new ExecutionIndex(T);
    Map<String, String> large = Map.of("instance_type", "c7.large", "region", "eu-1");
    Map<String, String> xlarge = Map.of("instance_type", "c7.xlarge", "region", "eu-1");
    // the newer execution's records first, as another partition may hand them over
    add(index, result("q", "q-2", "rx", "rx_bps", 2_100, xlarge, 80));
    add(index, result("q", "q-2", "rx", "rx_bps", 2_200, xlarge, 80, 81, 79));
    add(index, result("q", "q-2", "lat", "tcp_lat_us", 2_300, xlarge, 30, 31, 29));
    add(index, result("q", "q-1", "lat", "tcp_lat_us", 1_300, large, 30, 32, 28));
    add(index, result("q", "q-1", "rx", "rx_bps", 1_200, large, 40, 41, 39));
    add(index, result("other", "other-1", "rx", "rx_bps", 1_500, Map.of("instance_type", "c7.large"), 1, 2));
    return index;
  }

  @Test
  void executionIdPlanAndSelectorEachNameOneExecution() {
    ExecutionIndex index = twoExecutionsAndAnotherPlan();
    ExecutionResults byId = index.resolve("q-1");
    assertThat(byId.execution()).isEqualTo("q-1");
    assertThat(byId.plan()).isEqualTo("q");
    assertThat(byId.labels()).containsEntry("instance_type", "c7.large");
    assertThat(byId.source()).isEqualTo(T + ": q-1");
    assertThat(index.resolve("q").execution()).as("a plan: its latest execution").isEqualTo("q-2");
    // two executions have c7.large (q-1 and other-1): the latest
    assertThat(index.resolve("instance_type=c7.large").execution()).isEqualTo("other-1");
    assertThat(index.resolve(" region = eu-1 , instance_type=c7.large").execution()).isEqualTo("q-1");
    assertThat(index.resolve("region=eu-1").execution()).isEqualTo("q-2");
  }

  @Test
  void metricsComeInTheOrderTheyRanWithTheLatestRepetitions() {
    ExecutionResults q2 = twoExecutionsAndAnotherPlan().resolve("q-2");
    assertThat(q2.metrics()).extracting(ExecutionResults.Metric::key).containsExactly("rx/rx_bps", "lat/tcp_lat_us");
    assertThat(q2.metrics().get(0).array()).containsExactly(80, 81, 79);
    assertThat(twoExecutionsAndAnotherPlan().resolve("q-1").metrics()).extracting(ExecutionResults.Metric::key)
        .containsExactly("rx/rx_bps", "lat/tcp_lat_us");
  }

  @Test
  void executionsAreListedNewestFirstWithTheirLabels() {
    List<ExecutionIndex.Summary> all = twoExecutionsAndAnotherPlan().executions();
    assertThat(all).extracting(ExecutionIndex.Summary::select).containsExactly("q-2", "other-1", "q-1");
    assertThat(all.get(0).labels()).containsEntry("instance_type", "c7.xlarge");
    assertThat(all.get(0).latestMs()).isEqualTo(2_300);
    assertThat(all.get(0).metrics()).isEqualTo(2);
  }

  @Test
  void aTombstoneRemovesWhatItsKeyHeldAndAnEmptiedExecutionIsGone() {
    ExecutionIndex index = twoExecutionsAndAnotherPlan();
    ResultEvent gone = result("other", "other-1", "rx", "rx_bps", 0, null);
    index.add(gone.key(), null);
    assertThat(index.executions()).extracting(ExecutionIndex.Summary::select).containsExactly("q-2", "q-1");
    assertThat(index.resolve("instance_type=c7.large").execution()).isEqualTo("q-1");
    index.add("never-seen", null); // a tombstone of a key never read: nothing
    assertThat(index.executions()).hasSize(2);
  }

  @Test
  void anOlderProducersResultWithoutExecutionStandsForItsPlan() {
    ExecutionIndex index = new ExecutionIndex(T);
    add(index, result("old", null, "rx", "rx_bps", 5, null, 1, 2));
    index.add("foreign", new ResultEvent(1, "old", "rx", null, null, null, 0, 0, null, null, null, null, 9, null, null,
        null, false, null, 0, null, null));
    assertThat(index.executions()).extracting(ExecutionIndex.Summary::select).containsExactly("old");
    ExecutionResults old = index.resolve("old");
    assertThat(old.execution()).isNull();
    assertThat(old.name()).isEqualTo("old");
  }

  @Test
  void whatNamesNothingOrIsNoSelectorSaysSoInOneLine() {
    ExecutionIndex index = twoExecutionsAndAnotherPlan();
    assertThatThrownBy(() -> index.resolve("nope")).isInstanceOfSatisfying(ExecutionLookupException.class, e -> {
      assertThat(e.kind()).isEqualTo(ExecutionLookupException.Kind.UNKNOWN);
      assertThat(e.getMessage()).isEqualTo("no results for 'nope' on np.results: not an execution id, a plan name "
          + "or a label selector (KEY=VALUE) that it holds");
    });
    assertThatThrownBy(() -> index.resolve("instance_type=m9.huge"))
        .isInstanceOfSatisfying(ExecutionLookupException.class, e -> {
          assertThat(e.kind()).isEqualTo(ExecutionLookupException.Kind.NO_LABEL_MATCH);
          assertThat(e.getMessage()).isEqualTo("no execution on np.results has the labels instance_type=m9.huge "
              + "(labels come from the plan's 'labels:')");
        });
    for (String[] bad : new String[][] {
        {"instance_type=", "got 'instance_type='"}, {"=c7.large", "got '=c7.large'"},
        {"a=1,,b=2", "got ''"}, {"a=1,b", "got 'b'"}, {"a=1,a=2", "a is given twice (1, 2)"}, {" ", "empty"}}) {
      assertThatThrownBy(() -> index.resolve(bad[0])).as(bad[0])
          .isInstanceOfSatisfying(ExecutionLookupException.class, e -> {
            assertThat(e.kind()).isEqualTo(ExecutionLookupException.Kind.MALFORMED);
            assertThat(e.getMessage()).contains(bad[1]).doesNotContain("\n");
          });
    }
  }
}
