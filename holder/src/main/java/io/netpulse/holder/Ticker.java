package io.netpulse.holder;

import java.time.Duration;

/** Once-per-period progress lines on a selector thread: when the next one is due, and the rate since the last. */
final class Ticker {

  private final long periodNanos;
  private long nextNanos;
  private long lastNanos;
  private long lastCount;

  Ticker(long startNanos, Duration period) {
    this.periodNanos = period.toNanos();
    this.nextNanos = startNanos + periodNanos;
    this.lastNanos = startNanos;
  }

  boolean due(long nowNanos) {
    return nowNanos >= nextNanos;
  }

  /** Milliseconds a select() may block before the next line is due; at least 1 (0 would block forever). */
  long millisUntilDue(long nowNanos) {
    return Math.max(1, (nextNanos - nowNanos + 999_999) / 1_000_000);
  }

  /** Per second since the previous call, given a running total; schedules the next line. */
  long ratePerSecond(long nowNanos, long total) {
    double seconds = Math.max(1e-9, (nowNanos - lastNanos) / 1e9);
    long rate = Math.round((total - lastCount) / seconds);
    lastNanos = nowNanos;
    lastCount = total;
    // skip missed periods rather than printing a burst of catch-up lines after a stall
    while (nextNanos <= nowNanos) {
      nextNanos += periodNanos;
    }
    return rate;
  }
}
