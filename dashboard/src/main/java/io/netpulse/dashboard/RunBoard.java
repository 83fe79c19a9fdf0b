package io.netpulse.dashboard;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.SteadyEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest state of recent runs, newest updated first. Bounded: an always-on dashboard reads the whole runs topic
 * at start and sees every run afterwards, so only the {@value #MAX_RUNS} most recently updated are kept.
 */
final class RunBoard {

  static final int MAX_RUNS = 2000;

  /** Access order: the least recently updated run is evicted first. */
  private final Map<String, RunView> runs = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, RunView> eldest) {
      return size() > MAX_RUNS;
    }
  };

  /** Per-second series of runs in progress, each with when its run began: its rates from then go to the runs feed. */
  private final Map<SeriesKey, Long> watched = new ConcurrentHashMap<>();

  synchronized RunView add(RunEvent event) {
    RunView view = runs.get(event.run());
    view = view == null ? RunView.first(event) : view.with(event);
    runs.put(event.run(), view);
    if (view.metric() != null && view.sut() != null) {
      SeriesKey series = new SeriesKey(view.sut(), view.iface(), view.metric(), FleetView.WINDOW);
      if (view.ended()) {
        watched.remove(series);
      } else {
        watched.put(series, view.startedAt());
      }
    }
    return view;
  }

  /**
   * True when a rate of {@code series} whose window ends at {@code windowEnd} is a second of a running test's charted
   * series: the series is shared by every run on that SUT, so a second from before the run began (with a second of
   * slack for a window across its start, as the run's REST series) is another's, even when it arrives later.
   */
  boolean watches(SeriesKey series, long windowEnd) {
    Long startedAt = watched.get(series);
    return startedAt != null && windowEnd >= startedAt - 1000;
  }

  /** The run with its steady event, or null when the run is unknown (its lifecycle not seen, or evicted). */
  synchronized RunView steady(SteadyEvent event) {
    RunView view = runs.get(event.run());
    if (view == null) {
      return null;
    }
    view = view.with(event);
    runs.put(event.run(), view);
    return view;
  }

  synchronized int size() {
    return runs.size();
  }

  synchronized RunView get(String run) {
    return runs.get(run);
  }

  /** Runs newest first (by latest event); {@code activeOnly} drops those that are DONE or FAILED. */
  synchronized List<RunView> list(boolean activeOnly, int limit) {
    List<RunView> out = new ArrayList<>();
    for (RunView v : runs.values()) {
      if (!activeOnly || !v.ended()) {
        out.add(v);
      }
    }
    out.sort(Comparator.comparingLong(RunView::updated).reversed().thenComparing(RunView::run));
    return out.size() > limit ? List.copyOf(out.subList(0, limit)) : out;
  }
}
