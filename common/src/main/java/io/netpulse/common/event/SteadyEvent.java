package io.netpulse.common.event;

/**
 * A metric of a run has settled, keyed by run on {@code steady}.
 *
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
