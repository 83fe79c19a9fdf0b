package io.netpulse.common.compare;

import io.netpulse.common.catalog.Catalog;

import io.netpulse.common.catalog.Direction;

/**
 * One test and metric of B compared with A: both summaries, B ÷ A, Welch's p and the verdict.
 *
 * @param ratio B's mean ÷ A's mean, null when A's mean is 0 or either side has no value
 * @param welch null when either side has fewer than two values
 */
public record MetricComparison(String test, String metric, String unit, Direction direction, SampleStats a,
    SampleStats b, Double ratio, Welch welch, Verdict verdict) {

  /** Significance level of the verdicts. */
  public static final double ALPHA = 0.05;

  public static MetricComparison of(String test, String metric, String unit, double[] a, double[] b) {
    SampleStats sa = SampleStats.of(a);
    SampleStats sb = SampleStats.of(b);
    Direction direction = Catalog.direction(metric, unit);
    Double ratio = sa.n() == 0 || sb.n() == 0 || sa.mean() == 0 ? null : sb.mean() / sa.mean();
    Welch welch = Welch.test(a, b);
    return new MetricComparison(test, metric, unit, direction, sa, sb, ratio, welch, verdict(direction, welch));
  }

  private static Verdict verdict(Direction direction, Welch welch) {
    if (welch == null) {
      return Verdict.NOT_ENOUGH_REPETITIONS;
    }
    if (welch.p() >= ALPHA) {
      return Verdict.NO_SIGNIFICANT_DIFFERENCE;
    }
    boolean higher = welch.t() > 0;
    return switch (direction) {
      case HIGHER_IS_BETTER -> higher ? Verdict.BETTER : Verdict.WORSE;
      case LOWER_IS_BETTER -> higher ? Verdict.WORSE : Verdict.BETTER;
      case UNKNOWN -> Verdict.DIFFERENT;
    };
  }

  /** B's change against A in percent ((B − A) / A × 100), null without a ratio. */
  public Double changePct() {
    return ratio == null ? null : (ratio - 1) * 100;
  }

  /** Significantly worse by more than {@code pct} percent of A's mean (either way, as the metric's direction says). */
  public boolean regressionBeyond(double pct) {
    return verdict == Verdict.WORSE && changePct() != null && Math.abs(changePct()) > pct;
  }
}
