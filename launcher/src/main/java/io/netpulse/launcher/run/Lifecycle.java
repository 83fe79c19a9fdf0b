package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.launcher.plan.StopMode;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.TestProcedure;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/** The lifecycle events of one repetition: who it is (plan, test name and type, SUT) stays the same, the phase moves. */
final class Lifecycle {

  /** The reason of the FAILED event of an interrupted execution (with stopReason "interrupted"). */
  static final String INTERRUPTED = "interrupted (SIGINT/SIGTERM, e.g. Ctrl-C): every process the run started was "
      + "stopped";

  private final ExecutionContext ctx;
  private final TestProcedure procedure;
  private final int repetition;
  private final String run;
  /** Set by whoever publishes the last phase: the repetition itself, or the Ctrl-C hook (never both). */
  private final AtomicBoolean ended = new AtomicBoolean();
  /** Its last phase is (or is being) published as FAILED with stopReason "interrupted": the test ends with it. */
  private volatile boolean interrupted;

  Lifecycle(ExecutionContext ctx, TestProcedure procedure, int repetition, String run) {
    this.ctx = ctx;
    this.procedure = procedure;
    this.repetition = repetition;
    this.run = run;
  }

  void phase(Phase phase, long ts, String reason) {
    ctx.publisher().publish(event(phase, ts, reason));
  }

  /** STOPPING, saying why the measuring ended ({@code RunEvent.STOP_*}). */
  void stopping(long ts, String stopReason) {
    ctx.publisher().publish(event(Phase.STOPPING, ts, null).withStopReason(stopReason));
  }

  /** STOPPING, with each result metric's own reason where the repetition's stages stopped for different ones. */
  void stopping(long ts, String stopReason, java.util.Map<String, String> byMetric) {
    ctx.publisher().publish(event(Phase.STOPPING, ts, null).withStopReasons(stopReason, byMetric));
  }

  private RunEvent event(Phase phase, long ts, String reason) {
    RunEvent e = procedure.runEvent(run, ctx.plan().name(), repetition, phase, ts, reason)
        .inExecution(ctx.execution(), steady(ctx, procedure.test())).withPlanned(planned())
        .withSharedWithNetpulse(shared(ctx, procedure.test()))
        .withPlanLabels(ctx.plan().labels(), procedure.test().repetitions());
    // the host facts once per repetition (they are the bulk of an event), where it starts
    return phase == Phase.PREPARING && ctx.facts() != null ? e.withHostFacts(ctx.hostInfo(procedure.test())) : e;
  }

  /** The test's hosts that are the machine netpulse runs on; null when that could not be told. */
  private static java.util.List<String> shared(ExecutionContext ctx, TestSpec test) {
    return ctx.colocation() == null ? null : ctx.colocation().of(test);
  }

  /** The last phase (DONE or FAILED), unless the Ctrl-C hook has claimed it already. */
  void end(Phase phase, long ts, String reason) {
    end(phase, ts, reason, null);
  }

  /**
   * The same, with what ended the repetition's climb of connections (null: not such a test, or unknown). A repetition
   * that failed because the run is being interrupted (it began as the Ctrl-C hook ran) says so as the hook would.
   */
  void end(Phase phase, long ts, String reason, RunEvent.Climb climb) {
    if (ended.compareAndSet(false, true)) {
      RunEvent e = event(phase, ts, reason).withClimb(climb);
      if (phase == Phase.FAILED && ctx.hosts() != null && ctx.hosts().stopping()) {
        interrupted = true;
        e = event(phase, ts, INTERRUPTED).withClimb(climb).withStopReason(RunEvent.INTERRUPTED);
      }
      ctx.publisher().publish(e);
    }
  }

  /**
   * For the Ctrl-C hook: true when the repetition has not published its last phase and now never will; the hook then
   * publishes it ({@link #interruptClaimed}).
   */
  boolean claimEnd() {
    if (ended.compareAndSet(false, true)) {
      interrupted = true;
      return true;
    }
    return false;
  }

  /** FAILED as interrupted, after {@link #claimEnd}; waits at most {@code timeout} for the broker. */
  void interruptClaimed(Duration timeout) {
    ctx.publisher().publish(event(Phase.FAILED, System.currentTimeMillis(), INTERRUPTED)
        .withStopReason(RunEvent.INTERRUPTED), timeout);
  }

  /** Whether this repetition's last phase says the execution was interrupted (so its test ends with it). */
  boolean interrupted() {
    return interrupted;
  }

  /**
   * Interrupted between two repetitions of a test: {@code repetition}, the next, never starts and is FAILED as
   * interrupted, which ends the test (its result is final with the repetitions that ran).
   */
  static void interruptBefore(ExecutionContext ctx, TestProcedure procedure, int repetition) {
    Lifecycle next = new Lifecycle(ctx, procedure, repetition, RunIds.run(ctx.execution(), procedure.test(),
        repetition));
    next.ended.set(true);
    next.interrupted = true;
    ctx.publisher().publish(next.event(Phase.FAILED, System.currentTimeMillis(), INTERRUPTED + "; this repetition "
        + "never started").withStopReason(RunEvent.INTERRUPTED));
  }

  /** For progress displays (the dashboard's elapsed / remaining), and the clients a sum of theirs needs. */
  private RunEvent.Planned planned() {
    TestSpec test = procedure.test();
    return new RunEvent.Planned(test.warmup().toMillis(), test.duration().toMillis(),
        ctx.plan().stop().name().toLowerCase(java.util.Locale.ROOT), procedure.clients().size());
  }

  String run() {
    return run;
  }

  /** For a test that cannot start at all: every repetition is marked FAILED with the reason. */
  static void failAll(ExecutionContext ctx, TestSpec test, String reason) {
    for (int rep = 1; rep <= test.repetitions(); rep++) {
      String run = RunIds.run(ctx.execution(), test, rep);
      ctx.publisher().publish(RunEvent.ofRepetition(run, ctx.plan().name(), test.name(), rep, Phase.FAILED,
          System.currentTimeMillis(), reason, test.type().yamlName(), test.sut(), null).inExecution(ctx.execution(),
              steady(ctx, test))
          .withSharedWithNetpulse(shared(ctx, test)).withPlanLabels(ctx.plan().labels(), test.repetitions()));
    }
  }

  /**
   * The test's thresholds (the plan's, with the test's own in their place), as fractions, for the processor's steady
   * detector. Under {@code stop: fixed} nothing waits
   * for a precise report, so the precision judge (every sample of every series of the run, kept and judged again each
   * second) is not asked for: the spread rule's windows, as before, cost little. (Asking for it made the whole cli
   * suite's shared pipelines slower: CI's cli module 11:45 → 13:01.)
   */
  static RunEvent.Steady steady(ExecutionContext ctx, TestSpec test) {
    var s = test.steady();
    return s.precision() && ctx.plan().stop() == StopMode.STEADY
        ? RunEvent.Steady.ofPrecision(s.window().toMillis(), s.spreadPercent() / 100, s.risePercent() / 100,
            s.precisionPercent() / 100, s.minMeasure().toMillis())
        : new RunEvent.Steady(s.window().toMillis(), s.spreadPercent() / 100, s.risePercent() / 100);
  }
}
