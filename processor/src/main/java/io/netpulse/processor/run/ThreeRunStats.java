package io.netpulse.processor.run;

import java.util.Collection;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Mean, sample standard deviation and the 95 % confidence interval of the mean (Student t with n − 1
 * degrees of freedom) of a repetition's values. stddev and ci95 are null below two values.
 */
public record ThreeRunStats(int n, double mean, Double stddev, Double ci95) {

  public static ThreeRunStats of(Collection<Double> values) {
    int n = values.size();
    if (n == 0) {
      throw new IllegalArgumentException("no values to summarise");
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
    if (n < 2) {
      return new ThreeRunStats(n, mean, null, null);
    }
    double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    double stddev = Math.sqrt(squares / (n - 1));
    return new ThreeRunStats(n, mean, stddev, tQuantile975(n - 1) * stddev / Math.sqrt(n));
  }

  /** The 0.975 quantile of Student's t: the two-sided 95 % factor. */
  public static double tQuantile975(int degreesOfFreedom) {
    return new TDistribution(null, degreesOfFreedom).inverseCumulativeProbability(0.975);
  }
}
