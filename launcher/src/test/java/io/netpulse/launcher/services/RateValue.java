package io.netpulse.launcher.services;

import java.util.Locale;

/** A window's figures: mean, min, max of its samples, how many, in which unit. */
record RateValue(double mean, double min, double max, long count, String unit) {

  /** Relative tolerance of mean/min/max: only the order of a floating-point sum may differ. */
  static final double RELATIVE_TOLERANCE = 1e-9;

  /** Same figures: count and unit exact, mean/min/max within {@link #RELATIVE_TOLERANCE}. */
  boolean sameAs(RateValue o) {
    return count == o.count && java.util.Objects.equals(unit, o.unit) && close(mean, o.mean) && close(min, o.min)
        && close(max, o.max);
  }

  private static boolean close(double a, double b) {
    if (a == b) {
      return true;
    }
    return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "mean=%.6g min=%.6g max=%.6g count=%d %s", mean, min, max, count, unit);
  }
}
