package io.netpulse.common.event;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Statistics over the repetitions of one test's metric in one plan execution. On {@code results} keyed
 * plan/execution/test/metric ({@link #key()}: each update replaces the previous one of the same execution only);
 * on {@code results-latest} keyed plan/test/metric ({@link #latestKey()}: the newest execution's).
 *
 * @param values     value per repetition number, in {@code unit}
 * @param mean       mean of the values
 * @param stddev     sample standard deviation (n − 1), null below two values
 * @param ci95       half-width of the 95 % confidence interval of the mean (Student t, n − 1 degrees
 *                   of freedom): the mean is mean ± ci95; null below two values
 * @param hosts      hosts the values were measured on
 * @param runs       run ids the values came from
 * @param ts         epoch ms of the latest repetition's end
 * @param execution  the plan execution the values come from, or null (older producers)
 * @param labels     the plan's labels (instance type, region, image, ...); empty when none, null when unknown
 * @param hostFacts  what preflight found on the test's hosts; empty when unknown
 * @param finalResult true on the last update of the test in its execution: all planned repetitions have a value,
 *                   or the last planned repetition has one (an earlier one failed) or failed; JSON {@code final}
 * @param repetitionsPlanned the test's planned repetitions; null when the launcher did not say (older producers)
 * @param repetitionsCompleted repetitions with a value (= n)
 * @param stopReason why the test's result is final before all its planned repetitions ran:
 *                   {@value RunEvent#INTERRUPTED} when its execution was stopped by SIGINT/SIGTERM (Ctrl-C); null
 *                   otherwise and from older producers
 * @param stops      per repetition number with a value: why its measuring ended and the precision its value has (see
 *                   {@link Stop}); empty from older producers
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
    String execution,
    Map<String, String> labels,
    List<HostInfo> hostFacts,
    @JsonProperty("final") boolean finalResult,
    Integer repetitionsPlanned,
    int repetitionsCompleted,
    String stopReason,
    SortedMap<Integer, Stop> stops) {

  /**
   * 2: keyed per execution; labels, hostFacts, final, repetitionsPlanned, repetitionsCompleted (issue 14), then
   * stopReason and stops (optional, null or empty when absent).
   */
  public static final int SCHEMA = 2;

  /**
   * How one repetition's measuring ended and how well its value is known.
   *
   * @param reason    {@value RunEvent#STOP_PRECISE}, {@value RunEvent#STOP_SETTLED}, {@value RunEvent#STOP_DURATION} or {@value RunEvent#STOP_CLIENT_ENDED};
   *                  null when the launcher did not say
   * @param precision the 95 % confidence half-width of the repetition's value as a fraction of it (see
   *                  {@link RunValue#precision()}); null when it has none
   */
  public record Stop(String reason, Double precision) {}

  public ResultEvent {
    labels = labels == null ? null : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(labels));
    hostFacts = hostFacts == null ? List.of() : List.copyOf(hostFacts);
    stops = stops == null ? java.util.Collections.emptySortedMap()
        : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(stops));
  }

  /** Whether its execution was interrupted (SIGINT/SIGTERM) before the test's planned repetitions all ran. */
  public boolean interrupted() {
    return RunEvent.INTERRUPTED.equals(stopReason);
  }

  /** Key on {@code results}: one execution's result of a test's metric. */
  public String key() {
    return key(plan, execution, test, metric);
  }

  /** Key on {@code results-latest}: the newest execution's result of a plan's test and metric. */
  public String latestKey() {
    return plan + "/" + test + "/" + metric;
  }

  /** plan/execution/test/metric; an execution-less (older producer's) result has an empty execution. */
  public static String key(String plan, String execution, String test, String metric) {
    return plan + "/" + (execution == null ? "" : execution) + "/" + test + "/" + metric;
  }

  /**
   * Whether this result is of a newer execution than {@code other} (execution ids sort by time,
   * plan-yyyyMMddTHHmmssZ; a missing one is oldest), or of the same one and no older.
   */
  public boolean supersedes(ResultEvent other) {
    if (other == null) {
      return true;
    }
    String a = execution == null ? "" : execution;
    String b = other.execution == null ? "" : other.execution;
    int c = a.compareTo(b);
    return c > 0 || c == 0 && ts >= other.ts;
  }
}
