package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.remote.RemoteFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The repetition's timing rules on a clock that moves only when the schedule sleeps or a fake host or processor says
 * time passed: no hosts, root, SSH or broker. The real-host tests (RunEndToEndTest, RunInjectionTest,
 * RunInterruptedTest, InterimSteadyStopTest, ...) run the same class with the wall clock.
 */
@Tag("unit")
class RepetitionScheduleTest {

  private static final long T0 = 1_700_000_000_000L;
  /** Starting the clients over SSH takes this long: the schedule runs from their release, not from traffic start. */
  private static final long STARTUP = 500;
  private static final long UP = T0 + STARTUP;

  private final TestClock clock = new TestClock(T0);
  private final List<String> calls = new ArrayList<>();
  private final List<RepetitionSchedule.Measuring> measuring = new ArrayList<>();
  private final RepetitionSchedule.Marks marks = new RepetitionSchedule.Marks();

  @Test
  void fixedStopWarmsUpFromTheReleaseThenMeasuresUntilTheClientsEnd() throws Exception {
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    s.run(marks, clientsEndingAfter(9_000), neverSteady(), phases());

    assertThat(calls).containsExactly("warmup@0", "release 1@0", "measuring@2500", "await 1@2500");
    assertThat(marks.trafficStart()).isEqualTo(T0);
    assertThat(marks.clientsUp()).isEqualTo(UP);
    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).as("clients ended before the tools' time: the window ends with them")
        .isEqualTo(UP + 9_000);
    assertThat(marks.steadyAfter()).isEqualTo(-1);
    assertThat(measuring).containsExactly(new RepetitionSchedule.Measuring(UP + 2_000, -1, null, null));
  }

  @Test
  void fixedWindowIsCutAtTheToolsEndWhenAClientRunsOn() throws Exception {
    // a TCP sender draining its buffer through a capped link ends 3 s after the others
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    s.run(marks, clientsEndingAfter(8_000 + 3_000), neverSteady(), phases());

    assertThat(clock.millis()).isEqualTo(UP + 11_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 10_000);
  }

  @Test
  void aClientThatTookItsLoadAwayEndsTheWindowWhereItDid() throws Exception {
    // one of many streams ended 7 s into a 10-s test (netperf's errno 110 on the capped bed): the rows after it had
    // fewer streams than the plan's
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    RepetitionSchedule.LostLoad lost = new RepetitionSchedule.LostLoad(UP + 7_000, "198.18.0.2", "netperf#3 failed");
    s.run(marks, clientsEndingAfter(10_000, Optional.of(lost)), neverSteady(), phases());

    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 7_000);
    assertThat(marks.lostLoad()).isEqualTo(lost);
  }

  @Test
  void aClientLostBeforeHalfTheWindowFailsTheRepetition() {
    // 2 s measured of the 8 planned: a short reading of a long test is no value
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    RepetitionSchedule.LostLoad lost = new RepetitionSchedule.LostLoad(UP + 4_000, "198.18.0.2", "netperf#3 failed");
    assertThatThrownBy(() -> s.run(marks, clientsEndingAfter(10_000, Optional.of(lost)), neverSteady(), phases()))
        .isInstanceOf(RemoteFailure.class)
        .hasMessageContaining("netperf#3 failed: the window it loaded held 2.0 s of the 8.0 s planned, less than half");
    assertThat(marks.measuringEnd()).isZero();
    assertThat(marks.lostLoad()).isNull();
  }

  @Test
  void aClientLostAfterTheToolsEndLeavesTheWindowAsItWas() throws Exception {
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    RepetitionSchedule.LostLoad lost = new RepetitionSchedule.LostLoad(UP + 10_500, "198.18.0.2", "netperf#3 failed");
    s.run(marks, clientsEndingAfter(11_000, Optional.of(lost)), neverSteady(), phases());

    assertThat(marks.measuringEnd()).isEqualTo(UP + 10_000);
    assertThat(marks.lostLoad()).isNull();
  }

  @Test
  void aPrecisionStopNotReachedIsCutByALostClientToo() throws Exception {
    RepetitionSchedule s = schedule(new RepetitionShape(Duration.ofSeconds(2), Duration.ofSeconds(10),
        Duration.ofSeconds(3), 1, false, false, true));
    RepetitionSchedule.LostLoad lost = new RepetitionSchedule.LostLoad(UP + 8_000, "198.18.0.2", "netperf#3 failed");
    s.run(marks, clientsEndingAfter(10_000, Optional.of(lost)), neverSteady(), phases());

    assertThat(marks.measuringEnd()).isEqualTo(UP + 8_000);
    assertThat(marks.lostLoad()).isEqualTo(lost);
  }

  @Test
  void aWarmUpLongerThanTheToolsTimeStartsMeasuringAtTheToolsEnd() throws Exception {
    RepetitionSchedule s = schedule(shape(15, 10, null, 1, false, false));
    s.run(marks, clientsEndingAfter(0), neverSteady(), phases());

    assertThat(marks.measuringStart()).isEqualTo(UP + 10_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 10_000);
  }

  @Test
  void stagedHeldAndClimbingClientsAreNotCutAtTheToolsEnd() throws Exception {
    assertThat(shape(2, 10, null, 1, false, false).cutAtToolEnd()).isTrue();
    for (RepetitionShape shape : List.of(shape(2, 10, null, 2, false, false),
        shape(2, 10, null, 1, true, false), shape(2, 10, null, 1, false, true))) {
      TestClock c = new TestClock(T0);
      RepetitionSchedule.Marks m = new RepetitionSchedule.Marks();
      RepetitionSchedule s = new RepetitionSchedule(shape, c, d -> c.advance(d.toMillis()));
      s.run(m, new RepetitionSchedule.Clients() {
        @Override
        public long release(int stage) {
          c.advance(STARTUP);
          return c.millis();
        }

        @Override
        public Optional<RepetitionSchedule.LostLoad> await(int stage) {
          c.advance(12_000 / shape.stages()); // past the tools' end overall
          return Optional.empty();
        }
      }, (a, b, t) -> Optional.empty(), phases());

      assertThat(m.measuringEnd()).as("%s", shape).isEqualTo(c.millis()).isGreaterThan(m.clientsUp() + 10_000);
    }
  }

  @Test
  void stagesAreReleasedOneAfterAnotherAndEachAwaited() throws Exception {
    RepetitionSchedule s = schedule(shape(1, 4, null, 3, false, false));
    s.run(marks, clientsEndingAfter(1_000), neverSteady(), phases());

    assertThat(calls).containsExactly("warmup@0", "release 1@0", "measuring@1500", "await 1@1500", "release 2@1500",
        "await 2@2000", "release 3@3000", "await 3@3500");
    assertThat(marks.clientsUp()).as("the schedule runs from the first stage's release").isEqualTo(UP);
    assertThat(marks.measuringEnd()).as("staged: not cut at the tools' end").isEqualTo(T0 + 4_500);
  }

  @Test
  void steadyReportedEarlyMeasuresOneWindowThenStops() throws Exception {
    RepetitionSchedule s = schedule(shape(2, 60, Duration.ofSeconds(5), 1, false, false));
    List<Duration> timeouts = new ArrayList<>();
    s.run(marks, clientsEndingAfter(60_000), (trafficStart, clientsUp, timeout) -> {
      assertThat(trafficStart).isEqualTo(T0);
      assertThat(clientsUp).isEqualTo(UP);
      timeouts.add(timeout);
      clock.advance(7_000);
      return Optional.of(RepetitionSchedule.Settled.of("9.41 Gbit/s"));
    }, phases());

    assertThat(timeouts).as("waits until one window of the tools' time is left")
        .containsExactly(Duration.ofMillis(55_000));
    assertThat(calls).as("the clients are not awaited: they are stopped after the window")
        .containsExactly("warmup@0", "release 1@0", "measuring@7500");
    assertThat(measuring).containsExactly(new RepetitionSchedule.Measuring(UP + 7_000, 7_500, "9.41 Gbit/s", null));
    assertThat(marks.steadyAfter()).isEqualTo(7_500);
    assertThat(marks.measuringStart()).isEqualTo(UP + 7_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 12_000);
  }

  @Test
  void neverSteadyMeasuresTheLastWindowAndSaysSo() throws Exception {
    RepetitionSchedule s = schedule(shape(2, 60, Duration.ofSeconds(5), 1, false, false));
    s.run(marks, clientsEndingAfter(60_000), neverSteady(), phases());

    assertThat(measuring).containsExactly(new RepetitionSchedule.Measuring(UP + 55_000, -1, null,
        "not steady after 55 s; measured the last window anyway"));
    assertThat(marks.steadyAfter()).isEqualTo(-1);
    assertThat(marks.measuringStart()).isEqualTo(UP + 55_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 60_000);
  }

  @Test
  void caps() {
    RepetitionSchedule steady = schedule(shape(2, 60, Duration.ofSeconds(5), 1, false, false));
    assertThat(steady.steadyCap(UP)).as("one window before the tools' end").isEqualTo(UP + 55_000);
    RepetitionSchedule shortTool = schedule(shape(10, 12, Duration.ofSeconds(5), 1, false, false));
    assertThat(shortTool.steadyCap(UP)).as("never before the warm-up's end").isEqualTo(UP + 10_000);

    assertThat(steady.plannedSeconds()).as("two windows and 5 s").isEqualTo(15);
    assertThat(schedule(shape(2, 12, Duration.ofSeconds(5), 1, false, false)).plannedSeconds()).isEqualTo(12);
    assertThat(schedule(shape(2, 30, null, 1, false, false)).plannedSeconds()).isEqualTo(30);

    RepetitionSchedule fixed = schedule(shape(2, 30, null, 1, false, false));
    assertThat(fixed.clientDeadlines(Duration.ofSeconds(45)))
        .as("held clients until the tools' time, others that time and the load-scaled slack before they count as hung")
        .isEqualTo(new RepetitionSchedule.ClientDeadlines(T0 + 30_000, T0 + 75_000));
  }

  @Test
  void interruptedDuringTheWarmUpLeavesTheWindowUnended() {
    RepetitionSchedule s = new RepetitionSchedule(shape(2, 10, null, 1, false, false), clock, d -> {
      clock.advance(700);
      throw new InterruptedException("Ctrl-C");
    });
    assertThatThrownBy(() -> s.run(marks, clientsEndingAfter(10_000), neverSteady(), phases()))
        .isInstanceOf(InterruptedException.class);

    assertThat(calls).containsExactly("warmup@0", "release 1@0");
    assertThat(marks.measuringStart()).as("the planned start, as before").isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).isZero();
    assertThat(marks.durations(T0 - 3_000, clock.millis()))
        .isEqualTo(new RepetitionSchedule.Durations(3_000, 0, 0));
  }

  @Test
  void interruptedWhileWaitingForSteadyHasNoWindow() {
    RepetitionSchedule s = schedule(shape(2, 60, Duration.ofSeconds(5), 1, false, false));
    assertThatThrownBy(() -> s.run(marks, clientsEndingAfter(60_000), (a, b, t) -> {
      throw new InterruptedException("Ctrl-C");
    }, phases())).isInstanceOf(InterruptedException.class);

    assertThat(measuring).isEmpty();
    assertThat(marks.measuringStart()).isZero();
    assertThat(marks.measuringEnd()).isZero();
  }

  @Test
  void interruptedWhileMeasuringKeepsTheWindowStartAndNoEnd() {
    // the Ctrl-C hook stops the tools: the client's await fails
    RepetitionSchedule s = schedule(shape(2, 10, null, 1, false, false));
    assertThatThrownBy(() -> s.run(marks, new RepetitionSchedule.Clients() {
      @Override
      public long release(int stage) {
        clock.advance(STARTUP);
        return clock.millis();
      }

      @Override
      public Optional<RepetitionSchedule.LostLoad> await(int stage) throws RemoteFailure {
        clock.advance(4_000);
        throw new RemoteFailure("198.18.0.2", "iperf3#1 failed (exit status 143)");
      }
    }, neverSteady(), phases())).isInstanceOf(RemoteFailure.class);

    assertThat(measuring).hasSize(1);
    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).isZero();
    assertThat(marks.durations(T0, clock.millis())).isEqualTo(new RepetitionSchedule.Durations(0, 0, 0));
  }

  @Test
  void interruptedDuringTheSteadyWindowKeepsItsStart() {
    RepetitionSchedule s = new RepetitionSchedule(shape(2, 60, Duration.ofSeconds(5), 1, false, false), clock, d -> {
      throw new InterruptedException("Ctrl-C");
    });
    assertThatThrownBy(() -> s.run(marks, clientsEndingAfter(60_000), (a, b, t) -> {
      clock.advance(3_000);
      return Optional.of(RepetitionSchedule.Settled.of("1 Mpackets/s"));
    }, phases())).isInstanceOf(InterruptedException.class);

    assertThat(marks.measuringStart()).isEqualTo(UP + 3_000);
    assertThat(marks.steadyAfter()).isEqualTo(3_500);
    assertThat(marks.measuringEnd()).isZero();
  }

  @Test
  void durationsOfAFinishedRepetition() {
    RepetitionSchedule.Marks m = new RepetitionSchedule.Marks();
    assertThat(m.durations(T0, T0 + 4_000)).as("failed before traffic: all of it preparing")
        .isEqualTo(new RepetitionSchedule.Durations(4_000, 0, 0));
  }

  @Test
  void aShapeWithNoStageIsRefused() {
    assertThatThrownBy(() -> shape(2, 10, null, 0, false, false)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stages 0");
  }

  @Test
  void precisionStopMeasuresFromTheWarmUpsEndUntilTheMeanIsReportedPrecise() throws Exception {
    RepetitionSchedule s = schedule(precise(2, 60));
    List<Long> froms = new ArrayList<>();
    List<Duration> timeouts = new ArrayList<>();
    s.run(marks, clientsEndingAfter(60_000), (from, clientsUp, timeout) -> {
      froms.add(from);
      timeouts.add(timeout);
      clock.advance(12_000);
      return Optional.of(RepetitionSchedule.Settled.of("47.2 kpackets/s ± 0.40 %"));
    }, phases());

    assertThat(calls).as("MEASURING is published at the warm-up's end, before the judging; the clients are stopped, "
        + "not awaited").containsExactly("warmup@0", "release 1@0", "measuring@2500", "precise@14500");
    assertThat(froms).as("judged from the measuring's start").containsExactly(UP + 2_000);
    assertThat(timeouts).as("at most until the tools' end").containsExactly(Duration.ofMillis(58_000));
    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).as("the window is what was judged: it ends when reported precise")
        .isEqualTo(UP + 14_000);
    assertThat(marks.steadyAfter()).isEqualTo(14_500);
    assertThat(measuring).containsExactly(new RepetitionSchedule.Measuring(UP + 2_000, -1, null, null),
        new RepetitionSchedule.Measuring(UP + 2_000, 14_500, "47.2 kpackets/s ± 0.40 %", null));
    assertThat(s.plannedSeconds()).as("the bar runs to the duration: how soon it is precise is not known")
        .isEqualTo(60);
  }

  @Test
  void aPrecisionStopJudgedFromAfterALevelShiftMeasuresWhatWasJudged() throws Exception {
    // a burst credit ran out 30 s into the measuring: the processor forgot those seconds and judged from 31 s on
    RepetitionSchedule s = schedule(precise(2, 300));
    s.run(marks, clientsEndingAfter(300_000), (from, clientsUp, timeout) -> {
      clock.advance(90_000);
      return Optional.of(new RepetitionSchedule.Settled("47.2 kpackets/s ± 0.18 %", from + 31_000, 0));
    }, phases());

    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000 + 31_000);
    assertThat(marks.measuringEnd()).isEqualTo(UP + 2_000 + 90_000);
    assertThat(measuring).last().satisfies(m -> {
      assertThat(m.start()).isEqualTo(UP + 33_000);
      assertThat(m.note()).isEqualTo("a level shift: judged from 31.0 s after the warm-up's end");
    });
  }

  @Test
  void aPrecisionStopsWindowHoldsExactlyTheSecondsJudged() throws Exception {
    // the newest judged sar row is stamped 12 s into the measuring: a window holds it wholly from 13 s on
    long judgedTo = UP + 2_000 + 13_000;
    for (long travelled : new long[] {200, 2_400}) { // the report reached the launcher 0.2 s or 2.4 s after the row
      TestClock c = new TestClock(T0);
      RepetitionSchedule.Marks m = new RepetitionSchedule.Marks();
      RepetitionSchedule s = new RepetitionSchedule(precise(2, 60), c, d -> c.advance(d.toMillis()));
      s.run(m, clientsEndingAfter(60_000), (from, clientsUp, timeout) -> {
        c.set(judgedTo - 1_000 + travelled);
        return Optional.of(new RepetitionSchedule.Settled("47.2 kpackets/s ± 0.98 %", from, judgedTo));
      }, phases());

      assertThat(m.measuringEnd()).as("reported %d ms after the row: the window ends where the judged seconds do",
          travelled).isEqualTo(judgedTo);
      assertThat(c.millis()).as("the traffic runs until the window's end, not past what was reported")
          .isEqualTo(Math.max(judgedTo, judgedTo - 1_000 + travelled));
    }
  }

  @Test
  void aPrecisionReportsEndFarAheadOfThisClockIsNotWaitedFor() throws Exception {
    // the SUT's clock is an hour ahead of the launcher's: its rows' stamps say nothing about this clock
    RepetitionSchedule s = schedule(precise(2, 60));
    s.run(marks, clientsEndingAfter(60_000), (from, clientsUp, timeout) -> {
      clock.advance(12_000);
      return Optional.of(new RepetitionSchedule.Settled("47.2 kpackets/s ± 0.98 %", from, clock.millis() + 3_600_000));
    }, phases());

    assertThat(marks.measuringEnd()).as("ends when reported, as without an end").isEqualTo(UP + 14_000);
    assertThat(clock.millis()).isEqualTo(UP + 14_000);
  }

  @Test
  void precisionNotReachedRunsTheClientsToTheirEndAsAFixedStop() throws Exception {
    RepetitionSchedule s = schedule(precise(2, 30));
    s.run(marks, clientsEndingAfter(30_200), neverSteady(), phases());

    assertThat(calls).containsExactly("warmup@0", "release 1@0", "measuring@2500", "await 1@30500");
    assertThat(marks.steadyAfter()).as("no precise report: the duration was reached").isEqualTo(-1);
    assertThat(marks.measuringEnd()).as("cut at the tools' end, as a fixed stop").isEqualTo(UP + 30_000);
  }

  /**
   * A latency test stopped when precise: qperf's tcp_lat loop (stage 1), its udp_lat loop (stage 2), each judged on
   * its own metric, then ping (stage 3), which runs its count. tcp_lat is precise 12 s after its release and is
   * stopped; udp_lat never is and runs its 60 s; ping its 120.
   */
  @Test
  void aStagedPrecisionStopStopsEachJudgedStageWhenPreciseAndRunsTheOthersToTheirEnd() throws Exception {
    java.util.SortedMap<Integer, Duration> judged = new java.util.TreeMap<>(
        java.util.Map.of(1, Duration.ofSeconds(60), 2, Duration.ofSeconds(60)));
    RepetitionSchedule s = schedule(new RepetitionShape(Duration.ofSeconds(2), Duration.ofSeconds(60),
        Duration.ofSeconds(10), 3, false, false, true, judged));
    List<String> asked = new ArrayList<>();
    RepetitionSchedule.Steadiness stage1Precise = new RepetitionSchedule.Steadiness() {
      @Override
      public Optional<RepetitionSchedule.Settled> await(long from, long clientsUp, Duration timeout) {
        throw new AssertionError("a staged stop asks by stage");
      }

      @Override
      public Optional<RepetitionSchedule.Settled> await(int stage, long from, long clientsUp, Duration timeout) {
        asked.add("stage " + stage + " from " + (from - T0) + " for " + timeout.toMillis());
        if (stage == 1) {
          clock.set(clientsUp + 12_000);
          return Optional.of(RepetitionSchedule.Settled.of("20.1 us ± 0.90 %"));
        }
        clock.advance(timeout.toMillis());
        return Optional.empty();
      }
    };
    RepetitionSchedule.Clients clients = clientsEndingAfter(stage -> stage == 3 ? 120_000 : 60_300, Optional.empty());
    RepetitionSchedule.Phases phases = phases();
    List<String> precise = new ArrayList<>();
    s.run(marks, clients, stage1Precise, new RepetitionSchedule.Phases() {
      @Override
      public void warmup(long at) {
        phases.warmup(at);
      }

      @Override
      public void measuring(RepetitionSchedule.Measuring m) {
        phases.measuring(m);
      }

      @Override
      public void stagePrecise(int stage, RepetitionSchedule.Measuring m) {
        precise.add(stage + " after " + m.steadyAfterMs() + " at " + m.figure());
      }
    });

    // stage 1 released at 0 (up at 500), measured from 2,500; precise at 12,500 and stopped; stage 2 up at 13,200,
    // waited for until its 60 s are up (73,200), ends at 73,500; stage 3 up at 74,000, ends 120 s later
    assertThat(calls).containsExactly("warmup@0", "release 1@0", "measuring@2500", "stop 1@12500", "release 2@12700",
        "await 2@73200", "release 3@73500", "await 3@74000");
    assertThat(asked).containsExactly("stage 1 from 2500 for 58000", "stage 2 from 13200 for 60000");
    assertThat(precise).containsExactly("1 after 12500 at 20.1 us ± 0.90 %");
    assertThat(marks.preciseStages()).containsExactly(java.util.Map.entry(1, 12_500L));
    assertThat(marks.measuringStart()).isEqualTo(UP + 2_000);
    assertThat(marks.measuringEnd()).as("through the last stage's end").isEqualTo(T0 + 74_000 + 120_000);
    assertThat(marks.steadyAfter()).isEqualTo(-1);
  }

  @Test
  void judgedStagesNeedAPrecisionStopAndStagesThatExist() {
    java.util.SortedMap<Integer, Duration> judged = new java.util.TreeMap<>(java.util.Map.of(3, Duration.ofSeconds(5)));
    assertThatThrownBy(() -> new RepetitionShape(Duration.ofSeconds(2), Duration.ofSeconds(60),
        Duration.ofSeconds(10), 2, false, false, true, judged)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RepetitionShape(Duration.ofSeconds(2), Duration.ofSeconds(60),
        Duration.ofSeconds(10), 3, false, false, false, judged)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aConnectionClimbIsNeverAPrecisionStop() {
    assertThatThrownBy(() -> new RepetitionShape(Duration.ofSeconds(2), Duration.ofSeconds(30), null, 1,
        false, false, true)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steady settings");
  }

  private static RepetitionShape precise(int warmupS, int toolS) {
    return new RepetitionShape(Duration.ofSeconds(warmupS), Duration.ofSeconds(toolS),
        Duration.ofSeconds(10), 1, false, false, true);
  }

  private RepetitionSchedule schedule(RepetitionShape shape) {
    return new RepetitionSchedule(shape, clock, d -> clock.advance(d.toMillis()));
  }

  private static RepetitionShape shape(int warmupS, int toolS, Duration window, int stages, boolean held,
      boolean climb) {
    return new RepetitionShape(Duration.ofSeconds(warmupS), Duration.ofSeconds(toolS), window, stages, held,
        climb);
  }

  /** Clients that take {@link #STARTUP} to release and end {@code runMs} after that (each stage). */
  private RepetitionSchedule.Clients clientsEndingAfter(long runMs) {
    return clientsEndingAfter(runMs, Optional.empty());
  }

  /** As {@link #clientsEndingAfter(long)}, one of them having taken its load away at {@code lost}. */
  private RepetitionSchedule.Clients clientsEndingAfter(long runMs, Optional<RepetitionSchedule.LostLoad> lost) {
    return clientsEndingAfter(stage -> runMs, lost);
  }

  /** As {@link #clientsEndingAfter(long)}, each stage running {@code runMs} of it; stopping one takes 200 ms. */
  private RepetitionSchedule.Clients clientsEndingAfter(java.util.function.IntToLongFunction runMs,
      Optional<RepetitionSchedule.LostLoad> lost) {
    return new RepetitionSchedule.Clients() {
      private long released;

      @Override
      public long release(int stage) {
        calls.add("release " + stage + "@" + (clock.millis() - T0));
        clock.advance(STARTUP);
        released = clock.millis();
        return released;
      }

      @Override
      public Optional<RepetitionSchedule.LostLoad> await(int stage) {
        calls.add("await " + stage + "@" + (clock.millis() - T0));
        clock.set(Math.max(clock.millis(), released + runMs.applyAsLong(stage)));
        return lost;
      }

      @Override
      public void stop(int stage) {
        calls.add("stop " + stage + "@" + (clock.millis() - T0));
        clock.advance(200);
      }
    };
  }

  /** The processor reports nothing: the wait lasts its whole timeout. */
  private RepetitionSchedule.Steadiness neverSteady() {
    return (trafficStart, clientsUp, timeout) -> {
      clock.advance(timeout.toMillis());
      return Optional.empty();
    };
  }

  private RepetitionSchedule.Phases phases() {
    return new RepetitionSchedule.Phases() {
      @Override
      public void warmup(long at) {
        calls.add("warmup@" + (at - T0));
      }

      @Override
      public void measuring(RepetitionSchedule.Measuring m) {
        calls.add("measuring@" + (m.start() - T0));
        measuring.add(m);
      }

      @Override
      public void precise(RepetitionSchedule.Measuring m) {
        calls.add("precise@" + m.steadyAfterMs());
        measuring.add(m);
      }
    };
  }

  /** A clock that moves only when told: the schedule's input, not a stand-in for a part. */
  private static final class TestClock extends Clock {
    private long millis;

    TestClock(long millis) {
      this.millis = millis;
    }

    void advance(long ms) {
      millis += ms;
    }

    void set(long ms) {
      millis = ms;
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
