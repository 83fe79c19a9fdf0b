package io.netpulse.common.event;

/**
 * The value of one metric for one repetition, as the seeds define it (see the processor's
 * {@code RunValueRules}). Keyed plan/test/metric on its way to the three-run statistics.
 *
 * @param value       the value, in {@code unit}
 * @param host        host the value was measured on (the SUT for sar metrics), null when summed over hosts
 * @param iface       interface for sar metrics, else null
 * @param inputs      samples (sar, ss) or tool instances the value was made of
 * @param windowStart epoch ms the measuring phase began
 * @param windowEnd   epoch ms the measuring phase ended
 * @param execution   the plan execution the run belongs to (see {@link RunEvent#execution()}), or null
 */
public record RunValue(
    int schema,
    String run,
    String plan,
    String test,
    int repetition,
    String metric,
    double value,
    String unit,
    String host,
    String iface,
    long inputs,
    long windowStart,
    long windowEnd,
    String execution) {

  public static final int SCHEMA = 1;

  /** Without an execution. */
  public RunValue(int schema, String run, String plan, String test, int repetition, String metric, double value,
      String unit, String host, String iface, long inputs, long windowStart, long windowEnd) {
    this(schema, run, plan, test, repetition, metric, value, unit, host, iface, inputs, windowStart, windowEnd, null);
  }

  /** Key of the three-run statistics this value belongs to. */
  public String resultKey() {
    return plan + "/" + test + "/" + metric;
  }
}
