package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Latest rate and a bounded recent history per series, in memory. Written by the Kafka feed thread,
 * read by HTTP handlers.
 */
public final class RateStore {

  /** History kept per series: a little more than the page's 120 s chart. */
  public static final long HISTORY_MS = 180_000;

  /** Hard cap per series, so a producer with sub-second windows cannot grow memory without bound. */
  public static final int HISTORY_MAX_EVENTS = 600;

  private static final Comparator<RateEvent> BY_SERIES =
      Comparator.comparing(RateEvent::host)
          .thenComparing(RateEvent::iface, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(RateEvent::metric)
          .thenComparing(RateEvent::window, Comparator.nullsFirst(Comparator.naturalOrder()));

  private final Map<SeriesKey, Deque<RateEvent>> series = new ConcurrentHashMap<>();

  public void add(RateEvent rate) {
    Deque<RateEvent> history = series.computeIfAbsent(SeriesKey.of(rate), k -> new ArrayDeque<>());
    synchronized (history) {
      history.addLast(rate);
      long oldestKeptMs = rate.windowEnd() - HISTORY_MS;
      while (history.size() > HISTORY_MAX_EVENTS
          || (history.size() > 1 && history.peekFirst().windowEnd() < oldestKeptMs)) {
        history.removeFirst();
      }
    }
  }

  /** The most recently received rate of every series, sorted by host, iface, metric, window. */
  public List<RateEvent> latest() {
    List<RateEvent> out = new ArrayList<>();
    for (Deque<RateEvent> history : series.values()) {
      synchronized (history) {
        if (!history.isEmpty()) {
          out.add(history.peekLast());
        }
      }
    }
    out.sort(BY_SERIES);
    return out;
  }

  /** Recent rates of one series, oldest first; empty when the series is unknown. */
  public List<RateEvent> history(SeriesKey key) {
    Deque<RateEvent> history = series.get(key);
    if (history == null) {
      return List.of();
    }
    synchronized (history) {
      return List.copyOf(history);
    }
  }
}
