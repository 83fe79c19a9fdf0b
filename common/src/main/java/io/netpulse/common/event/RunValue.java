package io.netpulse.common.event;

/**
 * The value of one metric for one repetition, as the seeds define it (see the processor's
 * {@code Catalog}). Keyed plan/execution/test/metric on its way to the three-run statistics.
 *
 * @param value       the value, in {@code unit}
 * @param host        host the value was measured on (the SUT for sar metrics), null when summed over hosts
 * @param iface       interface for sar metrics, else null
 * @param inputs      samples (sar, ss) or tool instances the value was made of
 * @param windowStart epoch ms the measuring phase began
 * @param windowEnd   epoch ms the measuring phase ended
 * @param execution   the plan execution the run belongs to (see {@link RunEvent#execution()}), or null
 * @param labels      the plan's labels from the run's lifecycle, null when unknown
 * @param hostFacts   the test's hosts' facts from the run's PREPARING event, null when unknown
 * @param repetitionsPlanned the test's planned repetitions, null when unknown
 * @param endOfTest   true on a marker that carries no value: the test's last planned repetition failed, or its
 *                    execution was interrupted, so the execution's result of this metric is final as it stands; null
 *                    or false on values
 * @param stopReason  on a marker, {@value RunEvent#INTERRUPTED} when the execution was interrupted (SIGINT/SIGTERM);
 *                    on a value, why the repetition's measuring ended ({@value RunEvent#STOP_PRECISE},
 *                    {@value RunEvent#STOP_SETTLED}, {@value RunEvent#STOP_DURATION} or {@value RunEvent#STOP_CLIENT_ENDED}, from its STOPPING event);
 *                    null when not said (older producers)
 * @param precision   the 95 % confidence half-width of {@code value} as a fraction of it, by batch means over the
 *                    window's per-second samples (autocorrelation allowed for; for a value made of interim lines,
 *                    the window's whole per-second sums over the instances; for ping's rtt_avg_ms, its replies, one
 *                    a second); null when the value is not a mean of at least 10 per-second samples (another tool's
 *                    printed figure, a maximum), or when even 5 batches of them were correlated
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
    String execution,
    java.util.Map<String, String> labels,
    java.util.List<HostInfo> hostFacts,
    Integer repetitionsPlanned,
    Boolean endOfTest,
    String stopReason,
    Double precision) {

  /** 2: keyed per execution; labels, hostFacts, repetitionsPlanned; then stopReason on values and precision. */
  public static final int SCHEMA = 2;

  /** Whether this is an end-of-test marker rather than a value. */
  public boolean marker() {
    return Boolean.TRUE.equals(endOfTest);
  }

  /** Key of the three-run statistics this value belongs to: one execution's test and metric. */
  public String resultKey() {
    return ResultEvent.key(plan, execution, test, metric);
  }
}
