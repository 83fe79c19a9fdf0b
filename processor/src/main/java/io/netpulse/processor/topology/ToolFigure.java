package io.netpulse.processor.topology;

import io.netpulse.common.event.Sample;

/**
 * One figure a finished tool instance printed, with the repetition and instance it belongs to: what
 * "sum over instances" and "as printed" run values are made of.
 *
 * @param series for a printed figure that is the mean of the tool's per-reply figures (the catalog's
 *               {@code Metric.series}: ping's rtt_avg_ms), those figures in the order printed, so that the value
 *               can say its precision; null otherwise
 */
public record ToolFigure(String run, String test, int repetition, String instance, Sample sample,
    java.util.List<Double> series) {

  public ToolFigure(String run, String test, int repetition, String instance, Sample sample) {
    this(run, test, repetition, instance, sample, null);
  }
}
