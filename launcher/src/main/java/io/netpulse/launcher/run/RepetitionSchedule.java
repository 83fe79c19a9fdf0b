package io.netpulse.launcher.run;

import io.netpulse.launcher.remote.RemoteFailure;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Every timing decision of one repetition, from traffic start to the end of the measuring window; what starts, waits
 * for and stops the processes is passed in ({@link Clients}, {@link Steadiness}, {@link Phases}), and so are the clock
 * and the way to sleep, so the rules can be tested without hosts, root or a broker.
 *
 * <p>The rules. The schedule runs from when the clients were released (starting many over SSH takes a while on a
 * busy host, and that time must not be taken out of the warm-up). With {@code stop: fixed}, MEASURING runs from
 * release + warm-up (at most the tools' end) until the clients of every stage have ended; the window ends at
 * min(now, release + tools' time), except for staged clients, clients held until stopped and a connection climb,
 * whose window runs to the end. With {@code stop: steady}, MEASURING starts when the processor reports the watched
 * metric steady, or, if it has not by the time one window of the tools' time is left (never before release +
 * warm-up), then anyway, and says so; it lasts one window. With {@code stop: steady} and {@code criterion: precision},
 * MEASURING starts at the warm-up's end, as with a fixed stop, and ends when the processor reports the mean of what it
 * measured precise; if it does not by the tools' end, the clients run to their end as with a fixed stop, and the
 * repetition says the duration was reached. A precision stop over stages each judged on a metric of its own (a latency
 * test: qperf's tcp_lat loop, its udp_lat loop, then ping) measures from the warm-up's end through the last stage: a
 * judged stage is stopped when its metric is reported precise, or runs to its clients' end, and the next stage is then
 * released; a stage not judged runs to its end.
 */
final class RepetitionSchedule {

  /** Starts and awaits the clients; the repetition's processes, not the schedule's business. */
  interface Clients {
    /** Starts the stage's clients and releases them together; returns when they were released (epoch ms). */
    long release(int stage) throws RemoteFailure, InterruptedException;

    /**
     * Returns when the stage's clients have ended (or, for those held until stopped, the tools' time is up): with
     * the earliest load lost by a client that ended too soon in a way that ends the window rather than the
     * repetition (see {@link LateClientFailure#lostLoad}), else empty.
     */
    Optional<LostLoad> await(int stage) throws RemoteFailure, InterruptedException;

    /** Stops the stage's clients: its metric is known (a {@link RepetitionShape#staged} precision stop). */
    default void stop(int stage) throws RemoteFailure, InterruptedException {
      throw new UnsupportedOperationException("these clients cannot be stopped by stage");
    }
  }

  /**
   * A client ended inside its traffic time in a test read from the hosts' samplers: from {@code at} (epoch ms) on the
   * hosts no longer carried the plan's load, so the window ends there.
   *
   * @param host where the client ran
   * @param what the client and what it said, for a failure's message
   */
  record LostLoad(long at, String host, String what) {
    static Optional<LostLoad> earliest(Optional<LostLoad> a, Optional<LostLoad> b) {
      if (a.isEmpty()) {
        return b;
      }
      return b.isPresent() && b.get().at() < a.get().at() ? b : a;
    }
  }

  /** The processor's steady reports. */
  interface Steadiness {
    /**
     * The watched metric's steady report, once the processor reports it steady in a window that lies in this
     * repetition's traffic (for a precision stop: in its measuring, from {@code from} on); empty if it has not within
     * {@code timeout}.
     */
    Optional<Settled> await(long from, long clientsUp, Duration timeout) throws InterruptedException;

    /** As {@link #await(long, long, Duration)}, for the metric {@code stage} is judged on (a staged precision stop). */
    default Optional<Settled> await(int stage, long from, long clientsUp, Duration timeout)
        throws InterruptedException {
      return await(from, clientsUp, timeout);
    }
  }

  /**
   * A steady report: its figure as text and, for a precision stop, when what was judged began and the window end that
   * holds exactly the judged samples (epoch ms; 0: not said). It begins later than the measuring when the processor
   * forgot seconds before a level shift (a burst credit running out): the window is then what was judged.
   */
  record Settled(String figure, long judgedFrom, long judgedTo) {
    static Settled of(String figure) {
      return new Settled(figure, 0, 0);
    }
  }

  /** Told when a phase starts, to publish it. */
  interface Phases {
    void warmup(long at);

    void measuring(Measuring m);

    /**
     * A precision stop's mean was reported precise at {@code m.steadyAfterMs()}; the window ends now. With a
     * {@code note}, it starts later than MEASURING did, at {@code m.start()}: what was judged after a level shift.
     */
    default void precise(Measuring m) {}

    /** A staged precision stop's {@code stage} was reported precise at {@code m.steadyAfterMs()} and is stopped. */
    default void stagePrecise(int stage, Measuring m) {}
  }

  /** How to wait; {@code Thread::sleep} in real runs, a clock's advance in tests. */
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  /**
   * MEASURING starts at {@code start}; {@code steadyAfterMs} is how long after traffic start the metric was reported
   * steady (-1: not reported, or fixed stop), with its {@code figure}; {@code note} says why a window was measured
   * that is not steady (null otherwise).
   */
  record Measuring(long start, long steadyAfterMs, String figure, String note) {}

  /**
   * The times one repetition reached (epoch ms, 0 while not reached), kept as it goes so that a repetition that
   * fails or is interrupted still tells how far it got.
   */
  static final class Marks {
    private long trafficStart;
    private long clientsUp;
    private long measuringStart;
    private long measuringEnd;
    private long steadyAfter = -1;
    private LostLoad lostLoad;
    private final java.util.SortedMap<Integer, Long> preciseStages = new java.util.TreeMap<>();

    long trafficStart() {
      return trafficStart;
    }

    long clientsUp() {
      return clientsUp;
    }

    long measuringStart() {
      return measuringStart;
    }

    long measuringEnd() {
      return measuringEnd;
    }

    /** The client whose early end ended the window, null when the window ran its course. */
    LostLoad lostLoad() {
      return lostLoad;
    }

    /** In a staged precision stop, each stage stopped when precise → ms from traffic start to its report. */
    java.util.SortedMap<Integer, Long> preciseStages() {
      return java.util.Collections.unmodifiableSortedMap(preciseStages);
    }

    /** Milliseconds from traffic start to the steady report, -1 if there was none. */
    long steadyAfter() {
      return steadyAfter;
    }

    /** For the progress line: preparing (until traffic start), measuring (traffic start to window end), stopping. */
    Durations durations(long began, long ended) {
      return new Durations(trafficStart == 0 ? ended - began : trafficStart - began,
          trafficStart == 0 || measuringEnd == 0 ? 0 : measuringEnd - trafficStart,
          measuringEnd == 0 ? 0 : ended - measuringEnd);
    }
  }

  /** Milliseconds spent before traffic, from traffic start to the window's end, and after it. */
  record Durations(long preparingMs, long trafficMs, long stoppingMs) {}

  /** How long a stage's clients may take: held ones until {@code planned}, others until {@code hung} (epoch ms). */
  record ClientDeadlines(long planned, long hung) {}

  /**
   * A precision report judged from this much after MEASURING began: seconds before a level shift were forgotten. The
   * first judged second itself starts up to a second late (sar's phase).
   */
  static final long LEVEL_SHIFT_MIN_MS = 2_000;
  /** How far ahead of now a precision report's window end may be: one sar row's second, and clock slack. */
  static final long MAX_END_AHEAD_MS = 1_500;

  private final RepetitionShape shape;
  private final Clock clock;
  private final Sleeper sleeper;

  RepetitionSchedule(RepetitionShape shape, Clock clock, Sleeper sleeper) {
    this.shape = shape;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** The wall clock and {@code Thread.sleep}. */
  static RepetitionSchedule system(RepetitionShape shape) {
    return new RepetitionSchedule(shape, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()));
  }

  RepetitionShape shape() {
    return shape;
  }

  long now() {
    return clock.millis();
  }

  /** Seconds the repetition is expected to take, for the progress bar (steady: two windows and some slack). */
  long plannedSeconds() {
    long tool = shape.toolTime().toSeconds();
    return shape.steadyStop() && !shape.precision() ? Math.min(tool, shape.steadyWindow().toSeconds() * 2 + 5) : tool;
  }

  /**
   * From now, how long a stage's clients may run: the tools' time for those held until stopped, plus {@code slack}
   * (already scaled by the hosts' load) before one counts as hung.
   */
  ClientDeadlines clientDeadlines(Duration slack) {
    long planned = now() + shape.toolTime().toMillis();
    return new ClientDeadlines(planned, planned + slack.toMillis());
  }

  /**
   * Since the clients' release at {@code clientsUp}: when a steady stop stops waiting for the steady report and
   * measures the last window anyway (one window before the tools' end, never before the warm-up's end).
   */
  long steadyCap(long clientsUp) {
    long toolEnd = clientsUp + shape.toolTime().toMillis();
    return Math.max(clientsUp + shape.warmup().toMillis(), toolEnd - shape.steadyWindow().toMillis());
  }

  /** With a fixed stop, MEASURING starts at the warm-up's end, at most at the tools' end. */
  long fixedStart(long clientsUp) {
    return Math.min(clientsUp + shape.warmup().toMillis(), clientsUp + shape.toolTime().toMillis());
  }

  /** With a fixed stop, the window ends now, cut at the tools' end where {@link RepetitionShape#cutAtToolEnd} says. */
  long fixedEnd(long clientsUp, long measuringStart, long now) {
    long toolEnd = clientsUp + shape.toolTime().toMillis();
    return shape.cutAtToolEnd() ? Math.max(measuringStart, Math.min(now, toolEnd)) : now;
  }

  /**
   * Traffic start (WARMUP), the clients' release, and the measuring window, recorded in {@code marks} as they are
   * reached; returns at the window's end, when the clients are to be stopped. A failure or an interrupt (the run's
   * Ctrl-C hook stops the tools, or interrupts the wait) leaves {@code marks} where it got to.
   */
  void run(Marks marks, Clients clients, Steadiness steadiness, Phases phases)
      throws RemoteFailure, InterruptedException {
    long t0 = now();
    marks.trafficStart = t0;
    phases.warmup(t0);
    long clientsUp = clients.release(1);
    marks.clientsUp = clientsUp;
    if (shape.staged()) {
      runStagesToPrecision(marks, clients, steadiness, phases, t0, clientsUp);
    } else if (shape.precision()) {
      runToPrecision(marks, clients, steadiness, phases, t0, clientsUp);
    } else if (shape.steadyStop()) {
      long cap = steadyCap(clientsUp);
      Optional<String> steady = steadiness.await(t0, clientsUp, Duration.ofMillis(Math.max(0, cap - now())))
          .map(Settled::figure);
      long start = now();
      marks.measuringStart = start;
      Measuring m;
      if (steady.isPresent()) {
        marks.steadyAfter = start - t0;
        m = new Measuring(start, start - t0, steady.get(), null);
      } else {
        m = new Measuring(start, -1, null,
            "not steady after " + (start - t0) / 1000 + " s; measured the last window anyway");
      }
      phases.measuring(m);
      sleepUntil(start + shape.steadyWindow().toMillis());
      marks.measuringEnd = now();
    } else {
      long start = fixedStart(clientsUp);
      marks.measuringStart = start;
      sleepUntil(start);
      phases.measuring(new Measuring(start, -1, null, null));
      runClientsToTheirEnd(marks, clients, clientsUp, start);
    }
  }

  /**
   * The least part of the planned window a window ended by a lost client's load must still hold to be a value: half.
   * Less would be a short reading of a long test; the seed's procedure by hand reads sar over the whole duration.
   */
  static final double LEAST_PART_KEPT = 0.5;

  /**
   * Releases each later stage and awaits every stage's clients; the window ends at the clients' end (cut at the tools'
   * end), or earlier where a client ended inside its time and took its load with it: then at that time, if that keeps
   * {@link #LEAST_PART_KEPT} of the window, else the repetition fails.
   */
  private void runClientsToTheirEnd(Marks marks, Clients clients, long clientsUp, long start)
      throws RemoteFailure, InterruptedException {
    Optional<LostLoad> lost = Optional.empty();
    for (int stage = 1; stage <= shape.stages(); stage++) {
      if (stage > 1) {
        clients.release(stage);
      }
      lost = LostLoad.earliest(lost, clients.await(stage));
    }
    long end = fixedEnd(clientsUp, start, now());
    if (lost.isPresent() && lost.get().at() < end) {
      LostLoad l = lost.get();
      long planned = Math.max(1, clientsUp + shape.toolTime().toMillis() - start);
      if (l.at() - start < LEAST_PART_KEPT * planned) {
        throw new RemoteFailure(l.host(), String.format(java.util.Locale.ROOT, "%s: the window it loaded held %.1f s "
            + "of the %.1f s planned, less than half", l.what(), Math.max(0, l.at() - start) / 1000.0,
            planned / 1000.0));
      }
      marks.lostLoad = l;
      end = l.at();
    }
    marks.measuringEnd = end;
  }

  /**
   * The end of a precision stop's window: where the processor says it holds exactly the samples it judged, so that the
   * value reported and its precision are those the verdict was given on. Counting what arrived while the report
   * travelled instead (a second or two on a busy machine) had a repetition reported precise at ±1.17 % of a plan's
   * 1 %. That end can lie up to a second ahead (the newest sar row is counted only in a window reaching a second past
   * its stamp): the traffic runs until it. An end that is not in this repetition's measuring, or further ahead than
   * that (a SUT clock far from this one), is not used: the window then ends now, as it did before.
   */
  private long judgedEnd(long judgedTo, long start, long at) throws InterruptedException {
    if (judgedTo <= start || judgedTo > at + MAX_END_AHEAD_MS) {
      return at;
    }
    sleepUntil(judgedTo);
    return judgedTo;
  }

  /**
   * A precision stop: MEASURING from the warm-up's end; the window ends when the processor reports the mean precise,
   * or, if it does not by the tools' end, when the clients end (as with a fixed stop).
   */
  private void runToPrecision(Marks marks, Clients clients, Steadiness steadiness, Phases phases, long t0,
      long clientsUp) throws RemoteFailure, InterruptedException {
    long start = measureFromWarmupEnd(marks, phases, clientsUp);
    long toolEnd = clientsUp + shape.toolTime().toMillis();
    Optional<Settled> precise = steadiness.await(start, clientsUp,
        Duration.ofMillis(Math.max(0, toolEnd - now())));
    if (precise.isPresent()) {
      long at = now();
      marks.steadyAfter = at - t0;
      marks.measuringEnd = judgedEnd(precise.get().judgedTo(), start, at);
      long from = precise.get().judgedFrom();
      // seconds before a level shift were forgotten (the judged samples then start seconds, not a sar phase, later)
      if (from >= start + LEVEL_SHIFT_MIN_MS && from < at) {
        marks.measuringStart = from;
        phases.precise(new Measuring(from, at - t0, precise.get().figure(), String.format(java.util.Locale.ROOT,
            "a level shift: judged from %.1f s after the warm-up's end", (from - start) / 1000.0)));
      } else {
        phases.precise(new Measuring(start, at - t0, precise.get().figure(), null));
      }
      return;
    }
    runClientsToTheirEnd(marks, clients, clientsUp, start);
  }

  /**
   * A precision stop over stages judged on their own metrics: MEASURING from the warm-up's end to the last stage's
   * end. Each judged stage waits for its metric's precise report from its own release on (at most its clients' time),
   * then stops its clients, or else awaits their end; a stage not judged runs to its end. The window is not narrowed
   * after a level shift, as one stage's judge forgetting seconds says nothing of the other stages' values. A client
   * that took its load away does not end the window: these stages' values are their tools' figures, not the hosts'
   * samplers'.
   */
  private void runStagesToPrecision(Marks marks, Clients clients, Steadiness steadiness, Phases phases, long t0,
      long clientsUp) throws RemoteFailure, InterruptedException {
    long start = measureFromWarmupEnd(marks, phases, clientsUp);
    for (int stage = 1; stage <= shape.stages(); stage++) {
      long up = stage == 1 ? clientsUp : clients.release(stage);
      Duration time = shape.judgedStages().get(stage);
      if (time != null) {
        long stageEnd = up + time.toMillis();
        Optional<Settled> precise = steadiness.await(stage, Math.max(start, up), up,
            Duration.ofMillis(Math.max(0, stageEnd - now())));
        if (precise.isPresent()) {
          long at = now();
          clients.stop(stage);
          marks.preciseStages.put(stage, at - t0);
          phases.stagePrecise(stage, new Measuring(start, at - t0, precise.get().figure(), null));
          continue;
        }
      }
      clients.await(stage);
    }
    marks.measuringEnd = now();
  }

  /** A precision stop's MEASURING: from the warm-up's end (as a fixed stop's), published when it is reached. */
  private long measureFromWarmupEnd(Marks marks, Phases phases, long clientsUp) throws InterruptedException {
    long start = fixedStart(clientsUp);
    marks.measuringStart = start;
    sleepUntil(start);
    phases.measuring(new Measuring(start, -1, null, null));
    return start;
  }

  private void sleepUntil(long epochMillis) throws InterruptedException {
    long left = epochMillis - now();
    if (left > 0) {
      sleeper.sleep(Duration.ofMillis(left));
    }
  }
}
