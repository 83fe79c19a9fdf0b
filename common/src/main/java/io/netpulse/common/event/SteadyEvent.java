package io.netpulse.common.event;

/**
 * A metric of a run has settled, keyed by run on {@code steady}.
 *
 * @param host     host the metric was sampled on; null for a sum over a run's tool instances (netperf TCP_CRR /
 *                 TCP_RR {@code trans_per_s} from their interim lines), which may run on several hosts
 * @param value    mean over the window, in {@code unit}
 * @param windowMs length of the window judged, ms
 * @param spread   (max − min) / mean over the window; for tcp_estab the rise over it, as a fraction
 * @param ts       epoch ms of the last sample of the window
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
    long ts) {

  public static final int SCHEMA = 1;
}
