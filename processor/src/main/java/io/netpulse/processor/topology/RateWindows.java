package io.netpulse.processor.topology;

import io.netpulse.common.event.RateEvent;
import java.util.NavigableMap;

/** The window arithmetic of the rates: 1-s tumbling and 10-s hopping (1-s advance) windows of whole seconds. */
final class RateWindows {

  static final long SECOND_MS = 1000;
  static final long TEN_MS = 10_000;

  private RateWindows() {}

  /** Start of the earliest 10-s window still open when windows ending at or before {@code closeMs} have closed. */
  static long firstOpenTen(long closeMs) {
    if (closeMs == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    return Math.floorDiv(closeMs - TEN_MS, SECOND_MS) * SECOND_MS + SECOND_MS;
  }

  /** Start of the newest 10-s window that has closed. */
  static long newestClosedTen(long closeMs) {
    if (closeMs == Long.MIN_VALUE) {
      return Long.MIN_VALUE;
    }
    return Math.floorDiv(closeMs - TEN_MS, SECOND_MS) * SECOND_MS;
  }

  /** The second a time falls in, as its start. */
  static long secondOf(long ms) {
    return ms - Math.floorMod(ms, SECOND_MS);
  }

  /** The 10-s window starting at {@code startMs} from the buckets of its seconds (at least one). */
  static RateEvent tenSecondRate(NavigableMap<Long, SecondBucket> window, long startMs) {
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    long count = 0;
    SecondBucket any = null;
    for (SecondBucket b : window.values()) {
      sum += b.allSum;
      min = Math.min(min, b.allMin);
      max = Math.max(max, b.allMax);
      count += b.allCount;
      any = b;
    }
    return new RateEvent(RateEvent.SCHEMA, any.host, any.iface, any.metric, any.unit, "10s", startMs,
        startMs + TEN_MS, count == 0 ? 0 : sum / count, min, max, count);
  }
}
