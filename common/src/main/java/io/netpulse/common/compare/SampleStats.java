package io.netpulse.common.compare;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * One side of a comparison: its per-repetition values summarised as the processor does (sample stddev, 95 % CI
 * of the mean from Student's t with n − 1 degrees of freedom).
 *
 * @param stddev null below two values
 * @param ci95   half-width of the 95 % interval of the mean, null below two values
 */
public record SampleStats(int n, double mean, Double stddev, Double ci95) {

  public static SampleStats of(double[] values) {
    int n = values.length;
    if (n == 0) {
      return new SampleStats(0, Double.NaN, null, null);
    }
    double mean = Arrays.stream(values).average().orElseThrow();
    if (n < 2) {
      return new SampleStats(n, mean, null, null);
    }
    double sd = Math.sqrt(variance(values, mean));
    double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975);
    return new SampleStats(n, mean, sd, t * sd / Math.sqrt(n));
  }

  /** Sample variance (n − 1). */
  static double variance(double[] values, double mean) {
    double ss = 0;
    for (double v : values) {
      ss += (v - mean) * (v - mean);
    }
    return ss / (values.length - 1);
  }
}
