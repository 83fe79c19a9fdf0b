package io.netpulse.processor.topology;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;

/**
 * One series' samples in one second of the samples' own time: the building block of both the 1-s
 * and the 10-s windows. Mutable because it is updated once per sample on the hot path.
 *
 * <p>{@code all*} holds every sample any window accepted (the 10-s windows sum these);
 * {@code second*} only those that arrived while this second's own 1-s window was still open, so a
 * sample too late for the 1-s window never changes it. The dirty marks say what to emit next.
 */
final class SecondBucket {

  final String host;
  final String iface;
  final String metric;
  final String unit;
  /** epoch ms, a whole second */
  final long startMs;
  double allSum;
  double allMin = Double.POSITIVE_INFINITY;
  double allMax = Double.NEGATIVE_INFINITY;
  long allCount;
  double secondSum;
  double secondMin = Double.POSITIVE_INFINITY;
  double secondMax = Double.NEGATIVE_INFINITY;
  long secondCount;
  /** this second's 1-s window changed since it was last emitted */
  boolean secondDirty;
  /** earliest start (epoch ms) of a 10-s window changed through this bucket since last emitted; MAX: none */
  long tenDirtyFromMs = Long.MAX_VALUE;

  SecondBucket(String host, String iface, String metric, String unit, long startMs) {
    this.host = host;
    this.iface = iface;
    this.metric = metric;
    this.unit = unit;
    this.startMs = startMs;
  }

  static SecondBucket of(Sample s, long startMs) {
    return new SecondBucket(s.host(), s.iface(), s.metric(), s.unit(), startMs);
  }

  void addToAll(double value) {
    allSum += value;
    allMin = Math.min(allMin, value);
    allMax = Math.max(allMax, value);
    allCount++;
  }

  void addToSecond(double value) {
    secondSum += value;
    secondMin = Math.min(secondMin, value);
    secondMax = Math.max(secondMax, value);
    secondCount++;
    secondDirty = true;
  }

  void markTenDirtyFrom(long windowStartMs) {
    tenDirtyFromMs = Math.min(tenDirtyFromMs, windowStartMs);
  }

  /** Drops the dirty marks of 10-s windows that start before {@code windowStartMs} (they have closed). */
  void forgetTenBefore(long windowStartMs) {
    if (tenDirtyFromMs < windowStartMs) {
      tenDirtyFromMs = windowStartMs <= startMs ? windowStartMs : Long.MAX_VALUE;
    }
  }

  boolean dirty() {
    return secondDirty || tenDirtyFromMs != Long.MAX_VALUE;
  }

  RateEvent secondRate() {
    return new RateEvent(RateEvent.SCHEMA, host, iface, metric, unit, "1s", startMs, startMs + 1000,
        secondCount == 0 ? 0 : secondSum / secondCount, secondMin, secondMax, secondCount);
  }
}
