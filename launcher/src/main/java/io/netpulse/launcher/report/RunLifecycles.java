package io.netpulse.launcher.report;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Folds the lifecycle events of runs into their repetitions, with the processor's window rule
 * (RunValueProcessor): measuring starts at the first MEASURING event and ends at the next event of any
 * other phase, so the per-second series shown are the seconds the value was made of.
 */
final class RunLifecycles {

  private final Map<String, State> byRun = new HashMap<>();

  /** Events of one run arrive in order: its key is the run id, so they share a partition. */
  void add(RunEvent e) {
    State s = byRun.computeIfAbsent(e.run(), k -> new State());
    s.test = e.test() != null ? e.test() : s.test;
    s.type = e.type() != null ? e.type() : s.type;
    s.sut = e.sut() != null ? e.sut() : s.sut;
    s.iface = e.iface() != null ? e.iface() : s.iface;
    s.execution = e.execution() != null ? e.execution() : s.execution;
    s.repetition = e.repetition();
    s.outcome = e.phase().name();
    s.climb = e.climb() != null ? e.climb() : s.climb;
    s.shared = e.sharedWithNetpulse() != null ? e.sharedWithNetpulse() : s.shared;
    if (e.phase() == Phase.FAILED) {
      s.reason = e.reason();
    }
    if (e.phase() == Phase.MEASURING) {
      if (s.start == 0) {
        s.start = e.ts();
      }
    } else if (s.start > 0 && s.end == 0) {
      s.end = e.ts();
    }
  }

  /** A host's CPU use over a run's window; a later one for the same host (a correction) replaces it. */
  void add(CpuUse u) {
    byRun.computeIfAbsent(u.run(), k -> new State()).cpu.put(u.host(), u);
  }

  Optional<Repetition> repetition(String run) {
    State s = byRun.get(run);
    if (s == null || s.outcome == null) {
      return Optional.empty();
    }
    List<CpuUse> cpu = new ArrayList<>(s.cpu.values());
    cpu.sort(Comparator.comparing((CpuUse u) -> !u.host().equals(s.sut)).thenComparing(CpuUse::host)); // SUT first
    return Optional.of(new Repetition(run, s.test, s.type, s.repetition, s.sut, s.iface, s.execution, s.start, s.end,
        s.outcome, s.reason, s.climb, s.shared, cpu));
  }

  private static final class State {
    String test;
    String type;
    String sut;
    String iface;
    String execution;
    int repetition;
    long start;
    long end;
    String outcome;
    String reason;
    RunEvent.Climb climb;
    List<String> shared;
    final Map<String, CpuUse> cpu = new HashMap<>();
  }
}
