package io.netpulse.common.event;

/**
 * A metric of a run has settled, keyed by run on {@code steady}.
 *
 * @param host      host the metric was sampled on; null for a sum over a run's tool instances (netperf TCP_CRR /
 *                  TCP_RR {@code trans_per_s} from their interim lines), which may run on several hosts
 * @param value     mean over the window, in {@code unit}
 * @param windowMs  length of the window judged, ms; with {@value RunEvent.Steady#PRECISION}, the time the judged
 *                  samples cover ({@code ts − startTs})
 * @param spread    (max − min) / mean over the window; for tcp_estab the rise over it, as a fraction
 * @param ts        epoch ms of the last sample of the window
 * @param criterion which rule judged it: {@value RunEvent.Steady#SPREAD} or {@value RunEvent.Steady#PRECISION}; null
 *                  from older producers (the spread rule)
 * @param precision with {@value RunEvent.Steady#PRECISION}: the 95 % confidence half-width of {@code value} reached,
 *                  as a fraction of it; null otherwise
 * @param startTs   with {@value RunEvent.Steady#PRECISION}: epoch ms the first judged sample's second began (the
 *                  judged samples are all those since then); null otherwise
 * @param endTs     with {@value RunEvent.Steady#PRECISION}: epoch ms a measuring window must reach to hold exactly the
 *                  judged samples, the newest wholly: {@code ts} + 1 s for sar rows (a row stamped W may cover up to
 *                  W + 1 s, at sar's own phase), {@code ts} for seconds summed from interim lines; null otherwise
 */
public record SteadyEvent(
    int schema,
    String run,
    String host,
    String iface,
    String metric,
    double value,
    String unit,
    long windowMs,
    double spread,
    long ts,
    String criterion,
    Double precision,
    Long startTs,
    Long endTs) {

  /** Still 1: criterion, precision, startTs and endTs were added, optional (null: the spread rule), none changed. */
  public static final int SCHEMA = 1;

  /** Settled by the spread rule (or a connection count's rise) over the window ending at {@code ts}. */
  public SteadyEvent(int schema, String run, String host, String iface, String metric, double value, String unit,
      long windowMs, double spread, long ts) {
    this(schema, run, host, iface, metric, value, unit, windowMs, spread, ts, RunEvent.Steady.SPREAD, null, null,
        null);
  }
}
