package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RunEvent.Phase;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RunBoardTest {

  @Test
  void phasesMoveForwardOnlyAndEachKeepsItsFirstTime() {
    RunBoard board = new RunBoard();
    board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.WARMUP, 1000, "sut", "eth0"));
    board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.MEASURING, 3000, "sut", "eth0"));
    RunView late = board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.PREPARING, 500, "sut", "eth0"));

    assertThat(late.phase()).as("a late PREPARING does not move the run back").isEqualTo(Phase.MEASURING);
    assertThat(late.phases()).containsEntry(Phase.PREPARING, 500L).containsEntry(Phase.WARMUP, 1000L)
        .containsEntry(Phase.MEASURING, 3000L);
    assertThat(late.metric()).isEqualTo("rx_bps");
    assertThat(late.planned().durationMs()).isEqualTo(30_000);
  }

  @Test
  void runningTestsSeriesAreWatchedUntilTheyEnd() {
    RunBoard board = new RunBoard();
    SeriesKey rx = new SeriesKey("sut", "eth0", "rx_bps", "1s");
    board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.MEASURING, 1000, "sut", "eth0"));
    board.add(Events.run("r2", "p", "lat", "latency", 1, Phase.MEASURING, 1000, "sut", null));
    assertThat(board.watches(rx, 2000)).isTrue();
    assertThat(board.watches(new SeriesKey("sut", "eth0", "rx_pps", "1s"), 2000)).isFalse();
    // a second of the series from before the run began is another run's, even when it arrives now
    assertThat(board.watches(rx, 0)).isTrue(); // a window that ends within the second's slack
    assertThat(board.watches(rx, -1)).isFalse();

    board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.DONE, 9000, "sut", "eth0"));
    assertThat(board.watches(rx, 8000)).isFalse();
    assertThat(board.list(true, 10)).extracting(RunView::run).containsExactly("r2");
    assertThat(board.list(false, 10)).extracting(RunView::run).containsExactly("r1", "r2");
  }

  @Test
  void keepsOnlyTheMostRecentlyUpdatedRuns() {
    RunBoard board = new RunBoard();
    for (int i = 0; i < RunBoard.MAX_RUNS + 50; i++) {
      board.add(Events.run("r" + i, "p", "t", "tcp_rr", 1, Phase.DONE, i, "sut", null));
    }
    assertThat(board.list(false, Integer.MAX_VALUE)).hasSize(RunBoard.MAX_RUNS);
    assertThat(board.get("r0")).isNull();
    assertThat(board.get("r" + (RunBoard.MAX_RUNS + 49))).isNotNull();
  }

  @Test
  void steadyForAnUnknownRunIsNotInvented() {
    RunBoard board = new RunBoard();
    assertThat(board.steady(Events.steady("nope", "sut", "eth0", "rx_bps", 1e9, 5000))).isNull();
    board.add(Events.run("r1", "p", "rx", "rx_bandwidth", 1, Phase.MEASURING, 1000, "sut", "eth0"));
    assertThat(board.steady(Events.steady("r1", "sut", "eth0", "rx_bps", 1e9, 5000)).steady().value())
        .isEqualTo(1e9);
  }
}
