package io.netpulse.common.event;

import java.util.List;
import java.util.SortedMap;

/**
 * Statistics over the repetitions of one plan/test/metric, keyed plan/test/metric on the compacted
 * {@code results} topic: each update replaces the previous one.
 *
 * @param values     value per repetition number, in {@code unit}
 * @param mean       mean of the values
 * @param stddev     sample standard deviation (n − 1), null below two values
 * @param ci95       half-width of the 95 % confidence interval of the mean (Student t, n − 1 degrees
 *                   of freedom): the mean is mean ± ci95; null below two values
 * @param hosts      hosts the values were measured on
 * @param runs       run ids the values came from
 * @param ts         epoch ms of the latest repetition's end
 * @param execution  the plan execution the values come from (the latest one seen), or null
 */
public record ResultEvent(
    int schema,
    String plan,
    String test,
    String metric,
    String unit,
    SortedMap<Integer, Double> values,
    int n,
    double mean,
    Double stddev,
    Double ci95,
    List<String> hosts,
    List<String> runs,
    long ts,
    String execution) {

  public static final int SCHEMA = 1;

  public String key() {
    return plan + "/" + test + "/" + metric;
  }
}
