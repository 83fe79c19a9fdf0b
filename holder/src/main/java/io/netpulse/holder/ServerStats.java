package io.netpulse.holder;

/**
 * A server's counts at one moment.
 *
 * @param accepted     connections accepted since start
 * @param open         connections held right now
 * @param peakOpen     the most held at once
 * @param acceptErrors accepts that failed for want of file descriptors
 */
public record ServerStats(long accepted, long open, long peakOpen, long acceptErrors) {
}
