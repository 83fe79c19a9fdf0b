package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Latest rate and a bounded recent history per series, in memory. Written by the feed thread, read by HTTP handlers.
 * History is kept as two primitive arrays per series (window end, mean), not as events: a fleet of 1,000 hosts has
 * some 8,000 series, and a few minutes of events with their strings would take hundreds of MiB.
 */
public final class RateStore {

  /** History kept per series: a little more than the page's 120 s chart. */
  public static final long HISTORY_MS = 180_000;

  /** Hard cap per series, so a producer with sub-second windows cannot grow memory without bound. */
  public static final int HISTORY_MAX_EVENTS = 240;

  /** One point of a series: its window's end (epoch ms) and mean. */
  public record Point(long windowEnd, double mean) {}

  private static final Comparator<RateEvent> BY_SERIES =
      Comparator.comparing(RateEvent::host)
          .thenComparing(RateEvent::iface, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(RateEvent::metric)
          .thenComparing(RateEvent::window, Comparator.nullsFirst(Comparator.naturalOrder()));

  private final Map<SeriesKey, Series> series = new ConcurrentHashMap<>();
  private final AtomicLong updates = new AtomicLong();

  public void add(RateEvent rate) {
    series.computeIfAbsent(SeriesKey.of(rate), k -> new Series()).add(rate, updates.incrementAndGet());
  }

  /** The most recently received rate of every series, sorted by host, iface, metric, window. */
  public List<RateEvent> latest() {
    List<RateEvent> out = new ArrayList<>();
    forEachLatest(0, (key, rate) -> out.add(rate));
    out.sort(BY_SERIES);
    return out;
  }

  /** Recent points of one series, oldest first; empty when the series is unknown. */
  public List<Point> history(SeriesKey key) {
    Series s = series.get(key);
    return s == null ? List.of() : s.points(Integer.MAX_VALUE);
  }

  /** The newest {@code n} points of one series, oldest first. */
  List<Point> recent(SeriesKey key, int n) {
    Series s = series.get(key);
    return s == null ? List.of() : s.points(n);
  }

  /** The latest rate of one series, or null. */
  RateEvent latestOf(SeriesKey key) {
    Series s = series.get(key);
    return s == null ? null : s.latest();
  }

  /** Number of series held. */
  int size() {
    return series.size();
  }

  /** A counter that grows with every rate stored: pass it back to {@link #forEachLatest} for what changed since. */
  long updates() {
    return updates.get();
  }

  /** The latest rate of every series updated after {@code sinceUpdate} (0: all). */
  void forEachLatest(long sinceUpdate, java.util.function.BiConsumer<SeriesKey, RateEvent> action) {
    series.forEach((key, s) -> s.ifNewer(sinceUpdate, rate -> action.accept(key, rate)));
  }

  /** One series: the latest event and growable arrays of (window end, mean), trimmed to the history bounds. */
  private static final class Series {
    private RateEvent latest;
    private long lastUpdate;
    private long[] ends = new long[8];
    private double[] means = new double[8];
    private int start;
    private int size;

    synchronized void add(RateEvent rate, long update) {
      if (latest == null || rate.windowEnd() >= latest.windowEnd()) {
        latest = rate;
      }
      lastUpdate = update;
      if (size == ends.length && size < HISTORY_MAX_EVENTS) {
        grow();
      }
      if (size == ends.length) { // full at the cap: drop the oldest
        start = (start + 1) % ends.length;
        size--;
      }
      int at = (start + size) % ends.length;
      ends[at] = rate.windowEnd();
      means[at] = rate.mean();
      size++;
      long oldestKept = rate.windowEnd() - HISTORY_MS;
      while (size > 1 && ends[start] < oldestKept) {
        start = (start + 1) % ends.length;
        size--;
      }
    }

    private void grow() {
      int capacity = Math.min(HISTORY_MAX_EVENTS, ends.length * 2);
      long[] e = new long[capacity];
      double[] m = new double[capacity];
      for (int i = 0; i < size; i++) {
        e[i] = ends[(start + i) % ends.length];
        m[i] = means[(start + i) % means.length];
      }
      ends = e;
      means = m;
      start = 0;
    }

    synchronized List<Point> points(int newest) {
      int n = Math.min(newest, size);
      Point[] out = new Point[n];
      for (int i = 0; i < n; i++) {
        int at = (start + size - n + i) % ends.length;
        out[i] = new Point(ends[at], means[at]);
      }
      return Arrays.asList(out);
    }

    synchronized RateEvent latest() {
      return latest;
    }

    synchronized void ifNewer(long sinceUpdate, Consumer<RateEvent> action) {
      if (latest != null && lastUpdate > sinceUpdate) {
        action.accept(latest);
      }
    }
  }
}
