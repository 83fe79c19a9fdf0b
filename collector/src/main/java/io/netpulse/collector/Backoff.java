package io.netpulse.collector;

import java.time.Duration;

/** Doubling delay between attempts, from a first to a maximum delay; reset after a success. */
final class Backoff {

  private final long firstMillis;
  private final long maxMillis;
  private long nextMillis;

  Backoff(Duration first, Duration max) {
    this.firstMillis = first.toMillis();
    this.maxMillis = max.toMillis();
    this.nextMillis = firstMillis;
  }

  /** The delay to wait now; the next one doubles. */
  long next() {
    long now = nextMillis;
    nextMillis = Math.min(maxMillis, nextMillis * 2);
    return now;
  }

  void reset() {
    nextMillis = firstMillis;
  }
}
