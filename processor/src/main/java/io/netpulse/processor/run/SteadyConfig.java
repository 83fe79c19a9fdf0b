package io.netpulse.processor.run;

import io.netpulse.common.event.RunEvent;
import java.time.Duration;

/**
 * When a metric counts as settled.
 *
 * @param window          how far back the detector looks
 * @param maxSpread       largest (max − min) / mean over the window that counts as settled
 * @param maxRise         for {@code risingMetric}: largest rise over the window, as a fraction of its
 *                        first value (the seed's "reaches its maximum and stays unchanged")
 * @param risingMetric    the metric judged by its rise rather than its spread
 * @param criterion       {@link RunEvent.Steady#SPREAD} (the window and spread above) or {@link RunEvent.Steady#PRECISION}
 *                        (every sample since MEASURING, by {@link PrecisionJudge}; the rising metric keeps its rise)
 * @param precision       with precision: the 95 % half-width of the mean to reach, a fraction of the mean
 * @param minMeasure      with precision: how long to measure at least
 */
public record SteadyConfig(Duration window, double maxSpread, double maxRise, String risingMetric, String criterion,
    double precision, Duration minMeasure) {

  public static final SteadyConfig DEFAULTS = new SteadyConfig(Duration.ofSeconds(10), 0.05, 0.005, "tcp_estab");

  public SteadyConfig {
    if (window == null || window.toMillis() < 2_000) {
      throw new IllegalArgumentException("steady window must be at least 2 s, got " + window);
    }
    if (!(maxSpread >= 0) || !(maxRise >= 0)) {
      throw new IllegalArgumentException("steady thresholds must be ≥ 0, got spread " + maxSpread + ", rise " + maxRise);
    }
    criterion = criterion == null ? RunEvent.Steady.SPREAD : criterion;
    if (!criterion.equals(RunEvent.Steady.SPREAD) && !criterion.equals(RunEvent.Steady.PRECISION)) {
      throw new IllegalArgumentException("steady criterion must be spread or precision, got " + criterion);
    }
    minMeasure = minMeasure == null ? Duration.ZERO : minMeasure;
    // a precision of 0 is never reached and one of 1 (±100 %) says nothing: either is a mistake, not a setting
    if (RunEvent.Steady.PRECISION.equals(criterion) && !(precision > 0 && precision < 1) || minMeasure.isNegative()) {
      throw new IllegalArgumentException("steady precision must be in (0, 1) and min_measure ≥ 0, got " + precision
          + ", " + minMeasure);
    }
  }

  /** The spread rule, as before the precision criterion. */
  public SteadyConfig(Duration window, double maxSpread, double maxRise, String risingMetric) {
    this(window, maxSpread, maxRise, risingMetric, RunEvent.Steady.SPREAD, 0, Duration.ZERO);
  }

  /** Whether the run's means are judged by their precision rather than their spread. */
  public boolean byPrecision() {
    return RunEvent.Steady.PRECISION.equals(criterion);
  }
}
