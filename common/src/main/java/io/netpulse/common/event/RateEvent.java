package io.netpulse.common.event;

/**
 * Aggregate of one series (host/iface/metric) over one time window.
 *
 * @param window      window name: "1s" tumbling or "10s" hopping
 * @param windowStart epoch ms, inclusive
 * @param windowEnd   epoch ms, exclusive
 * @param mean        mean of the samples in the window, in {@code unit}
 */
public record RateEvent(
    int schema,
    String host,
    String iface,
    String metric,
    String unit,
    String window,
    long windowStart,
    long windowEnd,
    double mean,
    double min,
    double max,
    long count) {

  public static final int SCHEMA = 1;
}
