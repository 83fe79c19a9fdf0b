package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The dashboard's comparison of two plans gives the verdicts {@code netpulse compare} gives (same statistics). */
class ResultBoardCompareTest {

  @Test
  void rowsCarryWelchsPAndADirectionAwareVerdict() {
    ResultBoard board = new ResultBoard();
    board.add(Events.result("small", "rx", "rx_bps", "bit/s", 19.1e6, 20.3e6, 18.7e6));
    board.add(Events.result("big", "rx", "rx_bps", "bit/s", 39.2e6, 40.1e6, 38.8e6));
    board.add(Events.result("small", "lat", "rtt_avg_ms", "ms", 0.081, 0.072, 0.090));
    board.add(Events.result("big", "lat", "rtt_avg_ms", "ms", 0.162, 0.150, 0.170));
    board.add(Events.result("small", "pps", "rx_pps", "packets/s", 9400));
    board.add(Events.result("big", "pps", "rx_pps", "packets/s", 18800, 18700));
    board.add(Events.result("big", "only", "tcp_estab", "connections", 5, 6));
    List<ResultBoard.Comparison> rows = board.compare("small", "big");
    assertThat(rows).extracting(ResultBoard.Comparison::test).containsExactly("lat", "only", "pps", "rx");
    ResultBoard.Comparison rx = rows.get(3);
    assertThat(rx.p()).isCloseTo(8.353901307370017e-06, within(1e-12)); // SciPy ttest_ind(equal_var=False)
    assertThat(rx.verdict()).isEqualTo("better");
    assertThat(rx.direction()).isEqualTo("higher is better");
    ResultBoard.Comparison lat = rows.get(0);
    assertThat(lat.verdict()).isEqualTo("worse"); // latency up: lower is better
    assertThat(lat.direction()).isEqualTo("lower is better");
    assertThat(rows.get(2).verdict()).isEqualTo("not enough repetitions");
    assertThat(rows.get(2).p()).isNull();
    assertThat(rows.get(1).verdict()).isNull(); // only in B
    assertThat(board.compare("big", "small").get(3).verdict()).isEqualTo("worse");
  }
}
