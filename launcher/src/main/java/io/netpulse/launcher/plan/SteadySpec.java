package io.netpulse.launcher.plan;

import java.time.Duration;

/**
 * When {@code stop: steady} ends a repetition. With {@code criterion: spread} (the default) the metric is steady when,
 * over {@code window}, the spread (max − min) stays within {@code spreadPercent} of the mean (a connection count: it
 * rises by less than {@code risePercent}), and one more window is measured. With {@code criterion: precision} the
 * repetition measures from the warm-up's end until the processor reports the mean of what it measured known to
 * {@code precisionPercent} (95 % confidence half-width, autocorrelation handled by batch means, no trend between the
 * halves), never before {@code minMeasure}, at most the test's duration.
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

  public static final SteadySpec DEFAULT = new SteadySpec(Duration.ofSeconds(10), 5.0, 0.5, Criterion.SPREAD, 1.0,
      Duration.ofSeconds(10));

  /** The range rule (the default criterion) with these thresholds. */
  public SteadySpec(Duration window, double spreadPercent, double risePercent) {
    this(window, spreadPercent, risePercent, DEFAULT.criterion, DEFAULT.precisionPercent, DEFAULT.minMeasure);
  }

  public boolean precision() {
    return criterion == Criterion.PRECISION;
  }
}
