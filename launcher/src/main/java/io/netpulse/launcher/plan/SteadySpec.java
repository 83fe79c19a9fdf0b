package io.netpulse.launcher.plan;

import java.time.Duration;

/**
 * When {@code stop: steady} ends a repetition. With {@code criterion: precision} (the default) the repetition measures
 * from the warm-up's end until the processor reports the mean of what it measured known to {@code precisionPercent}
 * (95 % confidence half-width, autocorrelation handled by batch means, no trend between the halves), never before
 * {@code minMeasure}, at most the test's duration. With {@code criterion: spread} the metric is steady when, over
 * {@code window}, the spread (max − min) stays within {@code spreadPercent} of the mean, and one more window is
 * measured. Either way a connection count is steady when it rises by less than {@code risePercent} over
 * {@code window}.
 */
public record SteadySpec(Duration window, double spreadPercent, double risePercent, Criterion criterion,
    double precisionPercent, Duration minMeasure) {

  /** How steadiness is judged. */
  public enum Criterion {
    SPREAD, PRECISION;

    public String yamlName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The defaults: precision 1 %, at least 60 s measured. 60 s so that a burst credit that lasts up to about a minute
   * ends inside what is measured, where the level-shift check sees the rate fall (a credit spent within min_measure
   * would be reported as the rate); on instance types without burst credits 10 s is enough (docs/steady-state.md).
   */
  public static final SteadySpec DEFAULT = new SteadySpec(Duration.ofSeconds(10), 5.0, 0.5, Criterion.PRECISION, 1.0,
      Duration.ofSeconds(60));

  public boolean precision() {
    return criterion == Criterion.PRECISION;
  }
}
