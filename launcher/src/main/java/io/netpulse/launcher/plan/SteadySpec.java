package io.netpulse.launcher.plan;

import java.time.Duration;

/**
 * Steady-state thresholds: the metric is steady when, over {@code window}, the spread (max − min)
 * stays within {@code spreadPercent} of the mean and the mean rises by less than {@code risePercent}.
 */
public record SteadySpec(Duration window, double spreadPercent, double risePercent) {

  public static final SteadySpec DEFAULT = new SteadySpec(Duration.ofSeconds(10), 5.0, 0.5);
}
