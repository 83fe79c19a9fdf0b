package io.netpulse.launcher.run;

import io.netpulse.collector.ToolOutput;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.launcher.plan.StopMode;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.common.catalog.How;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.ResultRule;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.HostPreparation;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.tools.Parsers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One repetition of one test: samplers, servers, then clients stage by stage, the lifecycle on
 * {@code runs}, the clients' outputs on {@code tool-output}, and every process it started stopped
 * again, whatever happens.
 *
 * <p>Timeline. Traffic starts at t0 with WARMUP. With {@code stop: fixed}, MEASURING runs from
 * the clients' release + warmup until the clients end or the release + the tools' time, whichever comes first.
 * With {@code stop: steady}, for tests whose every value is read from
 * per-second samplers or from a tool's per-second lines streamed with their instance while the clients run
 * (netperf {@code -D 1} interim lines for its sums, iperf 2 {@code -i 1 --sum-only} rows for its sender rate),
 * MEASURING starts when the processor reports the watched metric steady and lasts one steady window; then the
 * clients are stopped (their final figures are then missing or cover the warm-up too: the processor takes the
 * mean of the per-second lines over the window). If the metric has not settled by the time the fixed schedule
 * has one window left, that last window is measured (and said so). Other tests whose value is a figure the tool
 * prints at its end run the tool's full time in both modes: qperf (unless its test asks for its 1-s loops, stages
 * judged each on its own figure: {@link StagedStop}) and sockperf print nothing usable when stopped early, and netperf
 * UDP_STREAM's receive figures come only from netserver at the end (its interim lines are the sender's rate).
 *
 * <p>Every timing decision (when MEASURING starts and ends, how long to wait for steady, client deadlines) is
 * {@link RepetitionSchedule}'s; starting the processes is {@link RepetitionStarts}'; this class awaits and stops them
 * and publishes the events.
 */
final class RepetitionRunner {

  private final ExecutionContext ctx;
  private final TestProcedure procedure;
  private final TestSpec test;
  private final ResultRule watched;
  /** In a staged precision stop (a latency test's qperf loops), the metric each judged stage stops on. */
  private final java.util.SortedMap<Integer, ResultRule> stageWatch;
  /** Clients stopped when their stage was precise: they printed no figure of their own. */
  private final java.util.Set<RemoteProcess> stoppedByStage = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final RepetitionSchedule schedule;
  private final List<RemoteProcess> samplers = new ArrayList<>();
  private final List<RemoteProcess> servers = new ArrayList<>();
  private final Map<HostCommand, RemoteProcess> clients = new java.util.LinkedHashMap<>();
  private final ClientEnds clientEnds;
  private final RepetitionStarts starts;
  /** The last repetition's lifecycle, to tell whether it ended as interrupted. */
  private Lifecycle last;

  RepetitionRunner(ExecutionContext ctx, TestProcedure procedure) {
    this.ctx = ctx;
    this.procedure = procedure;
    this.test = procedure.test();
    boolean precisionStop = ctx.plan().stop() == StopMode.STEADY && test.steady().precision();
    this.stageWatch = precisionStop ? StagedStop.judgedStages(procedure) : java.util.Collections.emptySortedMap();
    this.watched = stageWatch.isEmpty() && steadyStoppable(procedure) ? procedure.results().get(0) : null;
    boolean steady = (watched != null || !stageWatch.isEmpty()) && ctx.plan().stop() == StopMode.STEADY;
    this.schedule = RepetitionSchedule.system(shape(procedure, steady ? test.steady().window() : null,
        steady && test.steady().precision(), stageWatch.isEmpty() ? java.util.Collections.emptySortedMap()
            : StagedStop.stageTimes(procedure, stageWatch.keySet())));
    this.clientEnds = new ClientEnds(ctx, procedure, schedule);
    this.starts = new RepetitionStarts(ctx, procedure);
  }

  /** The schedule's view of the test: {@code steadyWindow} null unless it stops when steady. */
  static RepetitionShape shape(TestProcedure p, Duration steadyWindow) {
    return shape(p, steadyWindow, false);
  }

  /** As {@link #shape(TestProcedure, Duration)}, judged by the precision criterion when {@code precision}. */
  static RepetitionShape shape(TestProcedure p, Duration steadyWindow, boolean precision) {
    return shape(p, steadyWindow, precision, java.util.Collections.emptySortedMap());
  }

  /** As {@link #shape(TestProcedure, Duration, boolean)}, with stages judged on their own metrics. */
  static RepetitionShape shape(TestProcedure p, Duration steadyWindow, boolean precision,
      java.util.SortedMap<Integer, Duration> judgedStages) {
    int lastStage = p.clients().stream().mapToInt(HostCommand::stage).max().orElse(1);
    // a connection count's value is a maximum, not a mean: it keeps the rise rule
    boolean climb = p.results().stream().anyMatch(r -> r.how() == How.MAX_OVER_WINDOW);
    return new RepetitionShape(p.test().warmup(), Duration.ofSeconds(p.toolSeconds()), steadyWindow,
        lastStage, p.clients().stream().anyMatch(HostCommand::untilStopped), climb, precision && !climb,
        judgedStages);
  }

  /**
   * Whether every value of the repetition can be made from per-second figures (sampler rows, or tool instances'
   * per-second lines), so it can stop once they settle.
   */
  static boolean steadyStoppable(TestProcedure p) {
    return p.results().stream().allMatch(r -> r.how() == How.MEAN_ON_SUT
        || r.how() == How.MAX_OVER_WINDOW || fromInterimLines(r));
  }

  /**
   * A tool figure (summed over instances, or as printed) that its streamed per-second lines can stand for (the
   * catalog's interim metric): netperf TCP_CRR and TCP_RR sums (its {@code -D 1} interim lines), iperf 2's sender_bps
   * (its {@code -i 1 --sum-only} rows, which its procedure adds in steady mode). The processor reads those lines one
   * at a time as per-second rates.
   */
  static boolean fromInterimLines(ResultRule r) {
    return r.interim() != null;
  }

  /** The tools whose clients' lines this repetition streams (their per-second figures make a value). */
  private java.util.Set<String> streamedTools() {
    if (watched == null && stageWatch.isEmpty() || ctx.plan().stop() != StopMode.STEADY) {
      return java.util.Set.of();
    }
    return procedure.results().stream().filter(RepetitionRunner::fromInterimLines).map(ResultRule::interimSource)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  RepetitionOutcome run(int repetition) {
    samplers.clear();
    servers.clear();
    clients.clear();
    String run = RunIds.run(ctx.execution(), test, repetition);
    Lifecycle life = new Lifecycle(ctx, procedure, repetition, run);
    last = life;
    ctx.current().set(life);
    // clients in stages run one stage after the other: the bar's length is their sum, not one stage's time
    ctx.progress().startRepetition(test, repetition, Math.max(schedule.plannedSeconds(),
        procedure.clients().stream().mapToInt(HostCommand::stage).max().orElse(1) > 1
            ? StagedStop.plannedSeconds(procedure) : 0));
    long began = now();
    RepetitionSchedule.Marks marks = new RepetitionSchedule.Marks();
    HostPreparation irqs = null;
    String failure = null;
    try {
      life.phase(Phase.PREPARING, now(), null);
      if (procedure.irqAffinity() != null) {
        irqs = HostPreparation.bindIrqs(ctx.hosts().host(test.sut()), procedure.irqAffinity());
      }
      // independent of each other, and each costs SSH round trips plus a settle time: at once, not one after the other
      Parallel.both(() -> starts.samplers(run, samplers), () -> starts.servers(servers));
      schedule.run(marks, new RepetitionSchedule.Clients() {
        @Override
        public long release(int stage) throws RemoteFailure, InterruptedException {
          return starts.clients(run, stage, streamedTools(), clients);
        }

        @Override
        public java.util.Optional<RepetitionSchedule.LostLoad> await(int stage) throws RemoteFailure {
          return clientEnds.await(stage, clients);
        }

        @Override
        public void stop(int stage) {
          List<RemoteProcess> ps = clients.entrySet().stream().filter(e -> e.getKey().stage() == stage)
              .map(Map.Entry::getValue).toList();
          stoppedByStage.addAll(ps);
          stopAll(ps);
        }
      }, new RepetitionSchedule.Steadiness() {
        @Override
        public Optional<RepetitionSchedule.Settled> await(long from, long clientsUp, Duration timeout)
            throws InterruptedException {
          return awaitSteady(watched, run, from, clientsUp, timeout).map(RepetitionRunner::settled);
        }

        @Override
        public Optional<RepetitionSchedule.Settled> await(int stage, long from, long clientsUp, Duration timeout)
            throws InterruptedException {
          return awaitSteady(stageWatch.get(stage), run, from, clientsUp, timeout).map(RepetitionRunner::settled);
        }
      }, new RepetitionSchedule.Phases() {
        @Override
        public void warmup(long at) {
          life.phase(Phase.WARMUP, at, null);
          ctx.progress().phase(Phase.WARMUP);
        }

        @Override
        public void measuring(RepetitionSchedule.Measuring m) {
          if (m.steadyAfterMs() >= 0) {
            ctx.progress().message(String.format(java.util.Locale.ROOT, "%s rep %d: %s steady after %.1f s at %s",
                test.label(), repetition, watched.sampleMetric(), m.steadyAfterMs() / 1000.0, m.figure()));
          } else if (m.note() != null) {
            ctx.progress().message(test.label() + " rep " + repetition + ": " + m.note());
          }
          life.phase(Phase.MEASURING, m.start(), m.note());
          ctx.progress().phase(Phase.MEASURING);
        }

        @Override
        public void precise(RepetitionSchedule.Measuring m) {
          ctx.progress().message(preciseMessage(repetition, watched, m));
          if (m.note() != null) { // the window starts later than MEASURING did: MEASURING again, at its start
            life.phase(Phase.MEASURING, m.start(), m.note());
          }
        }

        @Override
        public void stagePrecise(int stage, RepetitionSchedule.Measuring m) {
          ctx.progress().message(preciseMessage(repetition, stageWatch.get(stage), m));
        }
      });
      RemoteFailure lost = SamplerLoss.of(samplers, began);
      if (lost != null) {
        throw lost;
      }
      // clients that ran to their end (a fixed stop, or a precision stop that reached the duration) printed figures
      // (a staged stop's last stage always ran to its end; its stopped stages' clients are left out)
      boolean stoppedEarly = schedule.shape().steadyStop() && !schedule.shape().staged()
          && (!schedule.shape().precision() || marks.steadyAfter() >= 0);
      if (!stoppedEarly) {
        // before STOPPING closes the window, so that the processor's first value has every instance's figure
        publishOutputs(run, repetition);
      }
      if (schedule.shape().staged()) {
        life.stopping(marks.measuringEnd(), RunEvent.STOP_DURATION,
            StagedStop.stopReasons(procedure, stageWatch, marks.preciseStages().keySet()));
      } else {
        life.stopping(marks.measuringEnd(), stopReason(marks));
      }
      ctx.progress().phase(Phase.STOPPING);
    } catch (RemoteFailure e) {
      failure = e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = "interrupted";
    } catch (RuntimeException e) {
      failure = e.getMessage() == null ? e.toString() : e.getMessage();
    } finally {
      stopAll(clients.values()); // first: a server gone before its client would make the client fail
      List<RemoteProcess> rest = new ArrayList<>(servers);
      rest.addAll(samplers);
      stopAll(rest); // one kill per host for both: the window has ended, sar's later rows are not counted
      if (irqs != null) {
        irqs.close();
      }
    }
    String left = unstopped();
    if (left != null) { // never quietly: they may go on loading the hosts through the next tests
      ctx.progress().message(left);
      failure = failure == null ? left : failure + "; " + left;
    }
    RunEvent.Climb climb = RepetitionClimb.of(test, servers, clients.values());
    try {
      life.end(failure == null ? Phase.DONE : Phase.FAILED, now(), failure, climb);
    } catch (RuntimeException e) {
      failure = failure == null ? e.getMessage() : failure;
    } finally {
      ctx.current().compareAndSet(life, null);
    }
    if (failure != null && life.interrupted()) {
      failure = Lifecycle.INTERRUPTED; // its tools died because the run was stopped: that is what to tell
    }
    RepetitionSchedule.Durations took = marks.durations(began, now());
    ctx.progress().endRepetition(failure, took.preparingMs(), took.trafficMs(), took.stoppingMs());
    return new RepetitionOutcome(run, repetition, failure, marks.measuringStart(), marks.measuringEnd(),
        marks.steadyAfter(), climb);
  }

  /**
   * Why the measuring ended: a client ended too soon and took its load with it, the watched metric was known (precise)
   * or settled, or the duration ran out.
   */
  private String stopReason(RepetitionSchedule.Marks marks) {
    if (marks.lostLoad() != null) {
      return RunEvent.STOP_CLIENT_ENDED;
    }
    if (!schedule.shape().steadyStop() || marks.steadyAfter() < 0) {
      return RunEvent.STOP_DURATION;
    }
    return schedule.shape().precision() ? RunEvent.STOP_PRECISE : RunEvent.STOP_SETTLED;
  }

  /** Whether the last repetition run ended as interrupted (SIGINT/SIGTERM): the test ends with it. */
  boolean lastInterrupted() {
    return last != null && last.interrupted();
  }

  /**
   * The steady event of this repetition's metric on the SUT whose window lies in the traffic (sar rows
   * carry the SUT's second boundaries, hence a second of slack). A sum over instances (no host) must not
   * start before every client was up: a second with some instances not yet running is no steady state.
   */
  private Optional<SteadyEvent> awaitSteady(ResultRule watched, String run, long from, long clientsUp,
      Duration timeout) throws InterruptedException {
    String iface = watched.iface();
    boolean summed = fromInterimLines(watched);
    boolean precision = schedule.shape().precision();
    return ctx.steady().await(s -> run.equals(s.run()) && watched.sampleMetric().equals(s.metric())
            && precision == RunEvent.Steady.PRECISION.equals(s.criterion())
            // a precision stop: judged from its measuring's first second on (the processor's rule); a spread stop:
            // a window in the traffic (sar rows carry the SUT's second boundaries, hence slack)
            && (precision ? s.startTs() != null && s.startTs() >= from - 1_000
                : summed ? s.ts() - s.windowMs() >= clientsUp : s.ts() - s.windowMs() >= from - 2_000)
            && (summed ? s.host() == null
                : watched.host().equals(s.host()) && (iface == null || iface.equals(s.iface()))),
        timeout);
  }

  /** "test 3 (latency) rep 1: tcp_lat_us precise after 13.5 s at 20.1 us ± 19.05 %", and a level shift's note. */
  private String preciseMessage(int repetition, ResultRule metric, RepetitionSchedule.Measuring m) {
    return String.format(java.util.Locale.ROOT, "%s rep %d: %s precise after %.1f s at %s%s", test.label(), repetition,
        metric.sampleMetric(), m.steadyAfterMs() / 1000.0, m.figure(), m.note() == null ? "" : " (" + m.note() + ")");
  }

  private static RepetitionSchedule.Settled settled(SteadyEvent s) {
    return new RepetitionSchedule.Settled(figure(s), s.startTs() == null ? 0 : s.startTs(),
        s.endTs() == null ? 0 : s.endTs());
  }

  /** A steady event's figure as the progress line says it: the value, and for a precision stop its half-width. */
  private static String figure(SteadyEvent s) {
    String value = Figures.format(s.value(), s.unit());
    return s.precision() == null ? value
        : value + String.format(java.util.Locale.ROOT, " ± %.2f %%", s.precision() * 100);
  }

  /**
   * The outputs of clients that ended by themselves go to {@code tool-output}, where the processor reads
   * their figures; clients stopped early (steady stop) printed no figure and are left out.
   */
  private void publishOutputs(String run, int repetition) {
    for (Map.Entry<HostCommand, RemoteProcess> e : clients.entrySet()) {
      HostCommand c = e.getKey();
      RemoteProcess p = e.getValue();
      OptionalInt exit = p.awaitExit(Duration.ZERO);
      if (exit.isEmpty() || stoppedByStage.contains(p) || !Parsers.formats().contains(c.tool())) {
        continue;
      }
      ctx.publisher().publish(ToolOutput.of(run, test.name(), repetition, c.host(), "client", c.tool(), c.instance(),
          p.commandLine(), exit.getAsInt(), p.stdout(), p.stderr(), p.startedMillis(), p.endedMillis()));
    }
  }

  /** What of this repetition's processes no stop reached, per host (null: all were). */
  private String unstopped() {
    List<RemoteProcess> all = new ArrayList<>(clients.values());
    all.addAll(servers);
    all.addAll(samplers);
    return RemoteHost.unstoppedOf(all);
  }

  /** Stops them host by host, one kill per step on each host, the hosts at once. */
  private void stopAll(java.util.Collection<RemoteProcess> processes) {
    RepetitionStarts.stopAll(ctx, processes);
  }

  static String exit(RemoteProcess p) {
    OptionalInt e = p.awaitExit(Duration.ZERO);
    return e.isPresent() ? " (exit status " + e.getAsInt() + ")" : "";
  }

  static String complaint(RemoteProcess p) {
    String said = p.complaint(3);
    return said.isEmpty() ? "" : ": " + said;
  }

  private long now() {
    return schedule.now();
  }
}
