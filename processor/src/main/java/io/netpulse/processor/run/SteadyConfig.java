package io.netpulse.processor.run;

import java.time.Duration;

/**
 * When a metric counts as settled.
 *
 * @param window          how far back the detector looks
 * @param maxSpread       largest (max − min) / mean over the window that counts as settled
 * @param maxRise         for {@code risingMetric}: largest rise over the window, as a fraction of its
 *                        first value (the seed's "reaches its maximum and stays unchanged")
 * @param risingMetric    the metric judged by its rise rather than its spread
 */
public record SteadyConfig(Duration window, double maxSpread, double maxRise, String risingMetric) {

  public static final SteadyConfig DEFAULTS = new SteadyConfig(Duration.ofSeconds(10), 0.05, 0.005, "tcp_estab");

  public SteadyConfig {
    if (window == null || window.toMillis() < 2_000) {
      throw new IllegalArgumentException("steady window must be at least 2 s, got " + window);
    }
    if (!(maxSpread >= 0) || !(maxRise >= 0)) {
      throw new IllegalArgumentException("steady thresholds must be ≥ 0, got spread " + maxSpread + ", rise " + maxRise);
    }
  }
}
