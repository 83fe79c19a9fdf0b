package io.netpulse.processor.window;

import io.netpulse.common.event.WideSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One host's state, stored as one value: every scope's open 10-s windows (a scope is a measurement and its tags: an
 * interface of sar's, the TCP table of {@code ss -s}), the host's own time (the newest row time it sent) and, once it
 * went idle, up to when its windows are closed. One value per host, not per scope, so that the changelog gets one
 * record per host and commit however many interfaces it has.
 */
final class HostOpenWindows {

  static final long TEN_MS = 10_000;

  final String host;
  /** The newest row time the host sent: its windows close by this, not by other hosts' times. */
  long timeMs = Long.MIN_VALUE;
  /** Windows starting before this are closed: set when the host went idle and its windows went out as they were. */
  long closedBeforeMs = Long.MIN_VALUE;
  /** Wall clock when the host was found idle; 0 while it sends. */
  long idleSinceMs;
  /** Open windows by start, then by scope. */
  final TreeMap<Long, Map<OpenWindow.Scope, OpenWindow>> open = new TreeMap<>();

  HostOpenWindows(String host) {
    this.host = host;
  }

  static long windowStart(long timeMs) {
    return Math.floorDiv(timeMs, TEN_MS) * TEN_MS;
  }

  /**
   * Adds a row to its window unless that window has closed.
   *
   * @return whether the row was taken
   */
  boolean add(WideSample row, long graceMs) {
    long start = windowStart(row.time());
    if (start < closedBeforeMs || isClosed(start, graceMs)) {
      return false;
    }
    open.computeIfAbsent(start, s -> new LinkedHashMap<>())
        .computeIfAbsent(new OpenWindow.Scope(row.name(), row.tags()), k -> new OpenWindow(row.name(), row.tags(), start)).add(row);
    return true;
  }

  /** A window closes once the host's own time is past its end plus the grace. */
  boolean isClosed(long startMs, long graceMs) {
    return timeMs != Long.MIN_VALUE && startMs + TEN_MS + graceMs <= timeMs;
  }

  /** Removes and returns the windows the host's time has closed, oldest first. */
  List<OpenWindow> takeClosed(long graceMs) {
    List<OpenWindow> closed = new ArrayList<>();
    while (!open.isEmpty() && isClosed(open.firstKey(), graceMs)) {
      closed.addAll(open.pollFirstEntry().getValue().values());
    }
    return closed;
  }

  /** Removes and returns every open window, oldest first, and keeps them closed: the host went idle. */
  List<OpenWindow> takeAll() {
    List<OpenWindow> all = new ArrayList<>();
    open.values().forEach(byScope -> all.addAll(byScope.values()));
    if (timeMs != Long.MIN_VALUE) {
      closedBeforeMs = Math.max(closedBeforeMs, windowStart(timeMs) + TEN_MS);
    }
    open.clear();
    return all;
  }
}
