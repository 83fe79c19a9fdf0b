package io.netpulse.common.compare;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Welch's two-sample t-test (unequal variances), two-sided: the test for two sets of repetitions measured on
 * different hosts or days, whose spreads need not be alike.
 *
 * @param t  (mean B − mean A) / √(varA/nA + varB/nB)
 * @param df Welch–Satterthwaite degrees of freedom
 * @param p  two-sided p-value
 */
public record Welch(double t, double df, double p) {

  /**
   * @return the test, or null when either side has fewer than two values (no variance to test with)
   */
  public static Welch test(double[] a, double[] b) {
    if (a.length < 2 || b.length < 2) {
      return null;
    }
    double ma = mean(a);
    double mb = mean(b);
    double qa = SampleStats.variance(a, ma) / a.length;
    double qb = SampleStats.variance(b, mb) / b.length;
    double se2 = qa + qb;
    if (se2 == 0) {
      // both sides constant: equal values are no difference, unequal ones are certain (as far as data can say)
      return ma == mb ? new Welch(0, Double.POSITIVE_INFINITY, 1.0)
          : new Welch(Math.copySign(Double.POSITIVE_INFINITY, mb - ma), Double.POSITIVE_INFINITY, 0.0);
    }
    double t = (mb - ma) / Math.sqrt(se2);
    double df = se2 * se2 / (qa * qa / (a.length - 1) + qb * qb / (b.length - 1));
    double p = 2 * new TDistribution(null, df).cumulativeProbability(-Math.abs(t));
    return new Welch(t, df, Math.min(1.0, p));
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }
}
