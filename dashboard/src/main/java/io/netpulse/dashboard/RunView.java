package io.netpulse.dashboard;

import io.netpulse.common.catalog.Catalog;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.SteadyEvent;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One repetition as the live view shows it: who it is, where it is now, when it entered each phase, and its steady
 * event once the processor has sent one.
 *
 * @param phases      epoch ms at which each phase was first seen, in phase order
 * @param metric      the per-second metric charted for this run's type (e.g. rx_bps), or null when its value is a
 *                    tool's final figure
 * @param updated     epoch ms of the latest event
 */
record RunView(
    String run,
    String plan,
    String test,
    String type,
    int repetition,
    String execution,
    String sut,
    String iface,
    RunEvent.Phase phase,
    String reason,
    RunEvent.Planned planned,
    Map<RunEvent.Phase, Long> phases,
    String metric,
    SteadyEvent steady,
    long updated) {

  RunView {
    phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
  }

  static RunView first(RunEvent e) {
    return new RunView(e.run(), e.plan(), e.test(), e.type(), e.repetition(), e.execution(), e.sut(), e.iface(),
        e.phase(), e.reason(), e.planned(), Map.of(e.phase(), e.ts()),
        Catalog.perSecondMetric(e.type() != null ? e.type() : e.test(), e.iface()).orElse(null), null, e.ts());
  }

  /**
   * With a later lifecycle event. Phases only move forward: a late, older event (another partition, a replay) adds
   * its timestamp but does not move the current phase back.
   */
  RunView with(RunEvent e) {
    Map<RunEvent.Phase, Long> seen = new java.util.EnumMap<>(RunEvent.Phase.class);
    seen.putAll(phases);
    seen.merge(e.phase(), e.ts(), Math::min);
    boolean newer = e.phase().ordinal() >= phase.ordinal();
    return new RunView(run, plan, test, type, repetition, execution, or(e.sut(), sut), or(e.iface(), iface),
        newer ? e.phase() : phase, newer && e.reason() != null ? e.reason() : reason,
        e.planned() != null ? e.planned() : planned, seen, metric, steady, Math.max(updated, e.ts()));
  }

  RunView with(SteadyEvent s) {
    return new RunView(run, plan, test, type, repetition, execution, sut, iface, phase, reason, planned, phases,
        metric, s, Math.max(updated, s.ts()));
  }

  /** Epoch ms of its first lifecycle event. */
  long startedAt() {
    return phases.values().stream().mapToLong(Long::longValue).min().orElse(updated);
  }

  /** Epoch ms it ended (DONE or FAILED), or null while it runs. */
  Long endedAt() {
    Long done = phases.get(RunEvent.Phase.DONE);
    return done != null ? done : phases.get(RunEvent.Phase.FAILED);
  }

  boolean ended() {
    return phase == RunEvent.Phase.DONE || phase == RunEvent.Phase.FAILED;
  }

  private static String or(String a, String b) {
    return a != null ? a : b;
  }
}
