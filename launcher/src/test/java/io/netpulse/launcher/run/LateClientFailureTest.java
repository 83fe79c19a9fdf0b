package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.catalog.How;
import io.netpulse.launcher.procedure.ResultRule;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LateClientFailureTest {

  static final ResultRule SAR_RX = new ResultRule("rx_bps", "bit/s", "sar-dev", "rx_bps", "sut", "eth0",
      How.MEAN_ON_SUT);
  static final ResultRule CRR = new ResultRule("connections_per_s", "connections/s", "netperf", "trans_per_s", null,
      null, How.SUM_OVER_INSTANCES);
  static final long T0 = 1_796_404_626_000L;

  @Test
  void aClientThatFailsAfterItsTrafficInASarReadTestIsExcusedAndSaysWhy() {
    // netperf -l 180 through the capped link: its end-of-test answer from netserver timed out 6 s after its 180 s
    assertThat(LateClientFailure.excuse(T0, T0 + 186_000, 180, List.of(SAR_RX)))
        .hasValueSatisfying(why -> assertThat(why).contains("after its 180 s of traffic", "read from sar-dev"));
    // its exit stamped a little before its own end by the release stamp's slack still counts as after
    assertThat(LateClientFailure.excuse(T0, T0 + 179_800, 180, List.of(SAR_RX))).isPresent();
  }

  @Test
  void aFailureSaysWhenInItsOwnTimeItCame() {
    assertThat(LateClientFailure.when(T0, T0 + 172_449, 185)).isEqualTo(" 172.4 s into its 185 s");
    assertThat(LateClientFailure.when(0, T0, 185)).as("never released").isEmpty();
  }

  @Test
  void aClientThatFailsInsideItsTrafficTimeFailsTheRepetition() {
    assertThat(LateClientFailure.excuse(T0, T0 + 120_000, 180, List.of(SAR_RX))).isEmpty();
    assertThat(LateClientFailure.excuse(0, T0 + 186_000, 180, List.of(SAR_RX))).as("never released").isEmpty();
  }

  @Test
  void aClientThatFailsInsideItsTrafficTimeInASarReadTestEndsTheWindowARowBeforeItsExit() {
    // netperf's errno 110 172.4 s into its 185 s: the window ends at the start of the second it ended in
    assertThat(LateClientFailure.lostLoad(T0, T0 + 172_449, 185, List.of(SAR_RX))).hasValue(T0 + 171_449);
    // after its time it is excused instead, and a never-released client is no measure of anything
    assertThat(LateClientFailure.lostLoad(T0, T0 + 185_000, 185, List.of(SAR_RX))).isEmpty();
    assertThat(LateClientFailure.lostLoad(0, T0 + 172_449, 185, List.of(SAR_RX))).isEmpty();
  }

  @Test
  void aClientWhoseFigureMakesTheValueFailsTheRepetitionWhenever() {
    assertThat(LateClientFailure.lostLoad(T0, T0 + 120_000, 180, List.of(CRR))).isEmpty();
    assertThat(LateClientFailure.lostLoad(T0, T0 + 120_000, 180, List.of(SAR_RX, CRR))).isEmpty();
    assertThat(LateClientFailure.excuse(T0, T0 + 186_000, 180, List.of(CRR))).isEmpty();
    assertThat(LateClientFailure.excuse(T0, T0 + 186_000, 180, List.of(SAR_RX, CRR))).isEmpty();
    assertThat(LateClientFailure.excuse(T0, T0 + 186_000, 180, List.of())).isEmpty();
  }
}
