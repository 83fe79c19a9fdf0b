package io.netpulse.common.compare;

import io.netpulse.common.catalog.Catalog;

import io.netpulse.common.catalog.Direction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Verdicts know each metric's direction, from the catalog (or the unit for metrics it does not name). */
@Tag("unit")
class MetricComparisonTest {

  private static final double[] LOW = {19.1, 20.3, 18.7};
  private static final double[] HIGH = {39.2, 40.1, 38.8};

  @ParameterizedTest
  @CsvSource({
      "rx_bps, bit/s, HIGHER_IS_BETTER", "tx_bps, bit/s, HIGHER_IS_BETTER", "sender_bps, bit/s, HIGHER_IS_BETTER",
      "send_bps, bit/s, HIGHER_IS_BETTER", "recv_bps, bit/s, HIGHER_IS_BETTER",
      "rx_pps, packets/s, HIGHER_IS_BETTER", "tx_pps, packets/s, HIGHER_IS_BETTER",
      "send_pps, packets/s, HIGHER_IS_BETTER", "recv_pps, packets/s, HIGHER_IS_BETTER",
      "connections_per_s, connections/s, HIGHER_IS_BETTER", "tcp_estab, connections, HIGHER_IS_BETTER",
      "trans_per_s, transactions/s, HIGHER_IS_BETTER", "rx_bps_as_seeds, bit/s, HIGHER_IS_BETTER",
      "tcp_lat_us, us, LOWER_IS_BETTER", "udp_lat_us, us, LOWER_IS_BETTER", "rtt_avg_ms, ms, LOWER_IS_BETTER",
      "avg_latency_us, us, LOWER_IS_BETTER", "p99_us, us, LOWER_IS_BETTER",
      // not in the catalog: the unit decides
      "p999_us, us, LOWER_IS_BETTER", "future_rate, messages/s, HIGHER_IS_BETTER", "odd, widgets, UNKNOWN"})
  void directionPerMetric(String metric, String unit, Direction expected) {
    assertThat(Catalog.direction(metric, unit)).isEqualTo(expected);
  }

  @Test
  void higherBandwidthIsBetterAndLowerIsWorse() {
    MetricComparison up = MetricComparison.of("rx_bandwidth", "rx_bps", "bit/s", LOW, HIGH);
    assertThat(up.verdict()).isEqualTo(Verdict.BETTER);
    assertThat(up.ratio()).isCloseTo(39.366666 / 19.366666, within(1e-4));
    assertThat(up.welch().p()).isLessThan(0.05);
    MetricComparison down = MetricComparison.of("rx_bandwidth", "rx_bps", "bit/s", HIGH, LOW);
    assertThat(down.verdict()).isEqualTo(Verdict.WORSE);
    assertThat(down.changePct()).isCloseTo(-50.8, within(0.1));
    assertThat(down.regressionBeyond(10)).isTrue();
    assertThat(down.regressionBeyond(60)).isFalse();
    assertThat(up.regressionBeyond(0)).isFalse();
  }

  @Test
  void higherLatencyIsWorseAndLowerIsBetter() {
    assertThat(MetricComparison.of("latency", "rtt_avg_ms", "ms", LOW, HIGH).verdict()).isEqualTo(Verdict.WORSE);
    assertThat(MetricComparison.of("latency", "tcp_lat_us", "us", HIGH, LOW).verdict()).isEqualTo(Verdict.BETTER);
    assertThat(MetricComparison.of("latency", "tcp_lat_us", "us", LOW, HIGH).regressionBeyond(10)).isTrue();
  }

  @Test
  void overlappingValuesAreNoSignificantDifference() {
    MetricComparison c = MetricComparison.of("latency", "rtt_avg_ms", "ms", new double[] {0.081, 0.072, 0.090},
        new double[] {0.079, 0.085, 0.070});
    // scipy: p = 0.6817723901309605
    assertThat(c.welch().p()).isCloseTo(0.6817723901309605, within(1e-9));
    assertThat(c.verdict()).isEqualTo(Verdict.NO_SIGNIFICANT_DIFFERENCE);
    assertThat(c.regressionBeyond(0)).isFalse();
  }

  @Test
  void oneRepetitionIsNotEnoughAndHasNoPValue() {
    MetricComparison c = MetricComparison.of("rx_pps", "rx_pps", "packets/s", new double[] {100}, HIGH);
    assertThat(c.verdict()).isEqualTo(Verdict.NOT_ENOUGH_REPETITIONS);
    assertThat(c.welch()).isNull();
    assertThat(c.regressionBeyond(0)).isFalse();
  }

  @Test
  void unknownDirectionSaysOnlyDifferent() {
    assertThat(MetricComparison.of("t", "odd", "widgets", LOW, HIGH).verdict()).isEqualTo(Verdict.DIFFERENT);
  }
}
