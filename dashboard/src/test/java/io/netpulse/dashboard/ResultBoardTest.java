package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.json.Json;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code results} holds every execution of a plan (schema 2): the board shows the newest execution's result per
 * test and metric, whatever order the executions' records are read in, and keeps its labels.
 */
@Tag("unit")
class ResultBoardTest {

  private static ResultEvent result(String execution, double value, String instanceType) {
    return new ResultEvent(ResultEvent.SCHEMA, "p", "rx", "rx_bps", "bit/s", new TreeMap<>(Map.of(1, value)), 1,
        value, null, null, List.of("sut"), List.of(execution + "-r1"), 1000, execution,
        Map.of("instance_type", instanceType), List.of(), false, 2, 1, null, null);
  }

  @Test
  void theNewestExecutionOfAPlanIsShownWithItsLabels() throws Exception {
    ResultBoard board = new ResultBoard();
    board.add(result("p-20261201T100000Z", 1.0, "c7.large"));
    board.add(result("p-20261201T110000Z", 2.0, "c7.xlarge"));
    board.add(result("p-20261201T100000Z", 1.5, "c7.large")); // a late update of the older execution
    List<ResultEvent> shown = board.of("p");
    assertThat(shown).hasSize(1);
    assertThat(shown.get(0).execution()).isEqualTo("p-20261201T110000Z");
    assertThat(shown.get(0).mean()).isEqualTo(2.0);
    assertThat(Json.text(shown.get(0))).contains("\"labels\":{\"instance_type\":\"c7.xlarge\"}", "\"final\":false");
  }
}
