package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Tests whose value is a sum of netperf figures (TCP_CRR, TCP_RR), through the whole processor: two real
 * instances' {@code -D 1} interim lines (captured together on loopback, see the fixtures' README) streamed on
 * {@code lines} with their instance give the per-second sum's steady event, and the repetition's value when
 * the launcher stopped the tools before they printed their figures.
 */
@Tag("unit")
class InterimSteadyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final Pattern INTERIM = Pattern.compile("Interim result:\\s+(\\S+) Trans/s over \\S+ seconds ending at (\\S+)");
  private static final RunEvent.Steady STEADY = new RunEvent.Steady(5_000, 0.10, 0.005);

  private WholeProcessorDriver driver;

  @BeforeEach
  void setUp() {
    driver = new WholeProcessorDriver(TOPICS, "interim-test");
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  @Test
  void newConnectionsSettleOnThePerSecondSumAndTheValueIsItsMeanOverTheWindowWhenTheToolsWereStopped() {
    List<Line> all = interim("netperf-tcp-crr-D1");
    long t0 = all.get(0).ts() - 1_100; // WARMUP: the clients start about a second before their first line
    phase("run-crr", "new_connections", Phase.WARMUP, t0);
    SteadyEvent settled = feedUntilSteady("run-crr", all);
    assertThat(settled.metric()).isEqualTo("trans_per_s");
    assertThat(settled.windowMs()).isEqualTo(5_000);
    assertThat(settled.spread()).isLessThanOrEqualTo(0.10);
    assertThat(settled.ts() % 1_000).isZero(); // the end of a whole second
    assertThat(settled.ts() - settled.windowMs()).isGreaterThanOrEqualTo(t0);
    // the window's mean is the mean of its five per-second sums, integrated here independently
    assertThat(settled.value()).isCloseTo(meanOfSums(all, settled.ts() - 5_000, settled.ts()), within(0.01));

    // the launcher measures one window from the steady event, then stops the clients: no final figure
    long start = settled.ts();
    long end = start + 5_000;
    phase("run-crr", "new_connections", Phase.MEASURING, start);
    all.stream().filter(l -> l.ts() > settled.ts() && l.ts() <= end + 1_500).forEach(l -> line("run-crr", l));
    phase("run-crr", "new_connections", Phase.STOPPING, end);
    double value = driver.latestValue("connections_per_s");
    assertThat(value).isCloseTo(meanOfSums(all, start, end), within(0.5));
    // and it is the tools' own figure within this loopback's second-to-second swing (their whole-run sum: 20946.66)
    assertThat(value).isCloseTo(10380.74 + 10565.92, within(0.05 * 20946.66));
  }

  @Test
  void clientsStoppedRightAtTheWindowsEndStillGiveEachInstancesRateOverWhatItCovered() {
    List<Line> all = interim("netperf-tcp-crr-D1");
    long t0 = all.get(0).ts() - 1_100;
    phase("run-cut", "new_connections", Phase.WARMUP, t0);
    SteadyEvent settled = feedUntilSteady("run-cut", all);
    long start = settled.ts();
    long end = start + 5_000;
    phase("run-cut", "new_connections", Phase.MEASURING, start);
    // stopped 200 ms after the window: each instance's last line ends up to a second before the window does
    all.stream().filter(l -> l.ts() > settled.ts() && l.ts() <= end + 200).forEach(l -> line("run-cut", l));
    phase("run-cut", "new_connections", Phase.STOPPING, end);
    assertThat(driver.latestValue("connections_per_s")).isCloseTo(meanOfSums(all, start, end), within(0.03 * 20946.66));
  }

  @Test
  void tcpRrSettlesOnlyAfterItsRampAndFinalFiguresStillWinWhenTheToolsRanToTheEnd() {
    List<Line> all = interim("netperf-tcp-rr-D1");
    long t0 = all.get(0).ts() - 1_100;
    phase("run-rr", "tcp_rr", Phase.WARMUP, t0);
    SteadyEvent settled = feedUntilSteady("run-rr", all);
    // the first seconds ramp from ~73k to ~95k: a window over them is not steady
    assertThat(settled.ts() - 5_000).isGreaterThanOrEqualTo(all.get(0).ts() + 2_000);
    assertThat(settled.value()).isCloseTo(meanOfSums(all, settled.ts() - 5_000, settled.ts()), within(0.01));
    // fixed mode: the whole run is measured and the tools' outputs arrive with their figures
    phase("run-rr", "tcp_rr", Phase.MEASURING, t0 + 5_000);
    all.stream().filter(l -> l.ts() > settled.ts()).forEach(l -> line("run-rr", l));
    long ended = all.get(all.size() - 1).ts();
    output("run-rr", "tcp_rr", "0", "netperf-tcp-rr-D1-0.txt", ended);
    output("run-rr", "tcp_rr", "1", "netperf-tcp-rr-D1-1.txt", ended);
    phase("run-rr", "tcp_rr", Phase.STOPPING, all.get(all.size() - 1).ts() + 500);
    assertThat(driver.latestValue("trans_per_s")).isCloseTo(44060.57 + 45373.31, within(0.01));
  }

  @Test
  void aSumThatStaysSettledIsReportedAgainEachNewWindowForALauncherThatCouldNotUseTheFirst() {
    // the launcher takes only a window that begins after its last client was up; the first may begin before
    List<Line> all = interim("netperf-tcp-crr-D1");
    phase("run-renew", "new_connections", Phase.WARMUP, all.get(0).ts() - 1_100);
    all.forEach(l -> line("run-renew", l));
    List<SteadyEvent> events = driver.steady.readValuesToList();
    assertThat(events).hasSizeGreaterThanOrEqualTo(2);
    for (int i = 1; i < events.size(); i++) {
      assertThat(events.get(i).ts() - events.get(i).windowMs()).isGreaterThanOrEqualTo(events.get(i - 1).ts());
    }
  }

  @Test
  void overAWholeRunTheInterimValueIsTheSumOfTheToolsOwnFigures() {
    // an instance's interim lines tile its run: averaged over their intervals they give its final Trans. Rate
    List<Line> all = interim("netperf-tcp-crr-D1");
    long first = all.get(0).ts() - 1_000;
    long last = all.get(all.size() - 1).ts();
    phase("run-all", "new_connections", Phase.WARMUP, first - 100);
    phase("run-all", "new_connections", Phase.MEASURING, first);
    all.forEach(l -> line("run-all", l));
    phase("run-all", "new_connections", Phase.STOPPING, last);
    // the first line of each instance is taken to cover 1 s (netperf's own says 1.000 and 1.053)
    assertThat(driver.latestValue("connections_per_s")).isCloseTo(10380.74 + 10565.92, within(0.005 * 20946.66));
  }

  @Test
  void aSecondIsSummedOnceEveryInstanceCoveredItOrTheNewestLineIsWellPastIt() {
    InterimSeconds s = new InterimSeconds();
    assertThat(s.add("a#0", 10_000, 100)).containsExactly(new InterimSeconds.Second(9_000, 100));
    assertThat(s.add("b#1", 10_500, 50)).isEmpty(); // b: 50/s over 9.5–10.5 s
    assertThat(s.add("a#0", 11_000, 100)).isEmpty(); // second 10 waits for b to cover it
    // b stretches its interval (netperf does when slowed down): its line ending at 13.5 s covers 10.5–13.5 s
    assertThat(s.add("a#0", 12_000, 100)).isEmpty();
    assertThat(s.add("a#0", 13_000, 100)).isEmpty();
    assertThat(s.add("b#1", 13_500, 60)).extracting(InterimSeconds.Second::sum)
        .containsExactly(100 + 25 + 30.0, 160.0, 160.0); // seconds 10, 11, 12
    // b goes quiet for good: once a is STALL_MS past a second, that second is passed over, never summed without
    // b's share (judged, such undercounts look steady at a fraction of the rate)
    List<InterimSeconds.Second> done = new ArrayList<>();
    for (long ts = 14_000; ts <= 13_000 + InterimSeconds.STALL_MS + 3_000; ts += 1_000) {
      done.addAll(s.add("a#0", ts, 100));
    }
    assertThat(done).isEmpty();
    assertThat(s.next).isEqualTo(16_000L); // seconds 13, 14 and 15 passed over
    assertThat(s.add("a#0", 16_000 + InterimSeconds.STALL_MS, 100)).isEmpty(); // a repeat counts once
  }

  @Test
  void withTheRunsClientCountNoSecondIsSummedBeforeEveryInstanceIsInIt() {
    InterimSeconds s = new InterimSeconds();
    // b prints from the start; a (slowed after a cap's burst) prints its first line only at 15 s
    for (long ts = 10_000; ts <= 15_000; ts += 1_000) {
      assertThat(s.add("b#1", ts, 50, 2)).as("b alone at %d", ts).isEmpty();
    }
    // a's first line covers 14-15 s: seconds before it lack its share and are never summed
    assertThat(s.add("a#0", 15_000, 100, 2)).extracting(InterimSeconds.Second::start).containsExactly(14_000L);
    assertThat(s.add("b#1", 16_000, 50, 2)).isEmpty();
    assertThat(s.add("a#0", 16_000, 100, 2)).containsExactly(new InterimSeconds.Second(15_000, 150));

    // unknown count (older launchers): instances seen are waited for, and a late one's earlier seconds skipped
    InterimSeconds old = new InterimSeconds();
    assertThat(old.add("b#1", 10_000, 50)).extracting(InterimSeconds.Second::start).containsExactly(9_000L);
    assertThat(old.add("a#0", 12_000, 100)).isEmpty(); // second 10 has b only up to 10 s; a starts at 11 s
    assertThat(old.add("b#1", 13_000, 50)).extracting(InterimSeconds.Second::sum).containsExactly(150.0);
  }

  @Test
  void aSumMissingOneOfTheRunsClientsNeitherSettlesNorGivesAValue() {
    // two netperfs started, only instance 1 prints interim lines (as one did, slowed after a cap's burst)
    List<Line> one = interim("netperf-tcp-crr-D1").stream().filter(l -> l.instance().equals("1")).toList();
    RunEvent.Planned planned = new RunEvent.Planned(1_000, 60_000, "steady", 2);
    long first = one.get(0).ts() - 1_000;
    driver.phase("run-half", "new_connections", Phase.WARMUP, first - 100, STEADY, planned);
    driver.phase("run-half", "new_connections", Phase.MEASURING, first, STEADY, planned);
    one.forEach(l -> line("run-half", l));
    driver.phase("run-half", "new_connections", Phase.STOPPING, one.get(one.size() - 1).ts(), STEADY, planned);
    assertThat(driver.steady.readValuesToList()).as("a steady state of half the instances").isEmpty();
    assertThat(driver.results.readValuesToList()).extracting(r -> r.metric())
        .as("half the sum is no value of the test").doesNotContain("connections_per_s");

    // the same lines with the count unknown (older launchers): the one instance seen is taken for the whole run
    driver.phase("run-old", "new_connections", Phase.WARMUP, first - 100, STEADY);
    driver.phase("run-old", "new_connections", Phase.MEASURING, first, STEADY);
    one.forEach(l -> line("run-old", l));
    driver.phase("run-old", "new_connections", Phase.STOPPING, one.get(one.size() - 1).ts(), STEADY);
    assertThat(driver.latestValue("connections_per_s")).isBetween(0.4 * 20946.66, 0.6 * 20946.66); // one instance's
  }

  /** Feeds the lines in time order until the run's steady event comes, and returns it. */
  private SteadyEvent feedUntilSteady(String run, List<Line> all) {
    for (Line l : all) {
      line(run, l);
      if (!driver.steady.isEmpty()) {
        List<SteadyEvent> events = driver.steady.readValuesToList();
        assertThat(events).hasSize(1);
        return events.get(0);
      }
    }
    throw new AssertionError("never steady");
  }

  /** The per-second sums over instances of [from, to) (whole seconds), averaged: pieces integrated second by second. */
  private static double meanOfSums(List<Line> all, long from, long to) {
    double total = 0;
    int seconds = 0;
    for (long s = from; s < to; s += 1_000) {
      double sum = 0;
      for (String instance : List.of("0", "1")) {
        long previous = -1;
        for (Line l : all) {
          if (!l.instance().equals(instance)) {
            continue;
          }
          long begin = previous < 0 ? l.ts() - 1_000 : previous;
          long overlap = Math.min(l.ts(), s + 1_000) - Math.max(begin, s);
          sum += overlap > 0 ? l.rate() * overlap / 1_000.0 : 0;
          previous = l.ts();
        }
      }
      total += sum;
      seconds++;
    }
    return total / seconds;
  }

  private void phase(String run, String type, Phase phase, long ts) {
    driver.phase(run, type, phase, ts, STEADY);
  }

  private void line(String run, Line l) {
    driver.lines.pipeInput("peer", Json.bytes(LineEvent.of("peer", "netperf", run, l.seq(), l.ts() + 20, l.text())
        .withInstance(l.instance())), l.ts() + 20);
  }

  /** A finished tool's output, stamped with its end: the wall clock would be stream time far past the fixture's. */
  private void output(String run, String test, String instance, String fixture, long ended) {
    driver.toolOutput.pipeInput(run, Json.bytes(new ToolOutputEvent(ToolOutputEvent.SCHEMA, run, test, 1, "peer", "client",
        "netperf", instance, "netperf -H sut -t TCP_RR -D 1", 0, WholeProcessorDriver.fixture(fixture), "", ended - 12_000, ended)), ended);
  }

  record Line(String instance, long seq, long ts, double rate, String text) {}

  /** Both instances' interim lines, in time order as they would reach the topic. */
  private static List<Line> interim(String prefix) {
    List<Line> out = new ArrayList<>();
    for (String instance : List.of("0", "1")) {
      long seq = 0;
      for (String text : WholeProcessorDriver.fixture(prefix + "-" + instance + ".txt").lines().toList()) {
        Matcher m = INTERIM.matcher(text);
        if (m.find()) {
          out.add(new Line(instance, seq, Math.round(Double.parseDouble(m.group(2)) * 1000),
              Double.parseDouble(m.group(1)), text));
        }
        seq++;
      }
    }
    out.sort(Comparator.comparingLong(Line::ts));
    return out;
  }
}
