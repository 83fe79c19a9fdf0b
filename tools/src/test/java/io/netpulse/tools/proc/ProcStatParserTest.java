package io.netpulse.tools.proc;

import io.netpulse.tools.Fixtures;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.event.Sample;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code /proc/stat} snapshots captured on this project's machine (fixtures README): each CPU's busy, softirq and steal
 * share between two snapshots, worked out by hand from the tick counts.
 */
@Tag("unit")
class ProcStatParserTest {

  private static final ProcStatParser PARSER = new ProcStatParser();
  private static final ParseContext UTC = new ParseContext(ZoneOffset.UTC, 0, null);

  private static List<Sample> at(List<Sample> samples, String metric, String cpu) {
    return Fixtures.find(samples, metric, cpu);
  }

  @Test
  void snapshotsOfTheCpuLinesGiveEachCpusUseBetweenThem() {
    ParseResult r = PARSER.parse(Fixtures.lines("proc/proc-stat-cpu1-burner.txt"), UTC);
    assertThat(r.errors()).isEmpty();
    // four snapshots: three intervals, each for all, cpu0 and cpu1, three metrics each
    assertThat(r.samples()).hasSize(27);
    assertThat(r.samples()).allSatisfy(s -> {
      assertThat(s.unit()).isEqualTo("%");
      assertThat(s.value()).isBetween(0.0, 100.0);
    });
    // cpu1 ran a busy loop pinned to it (taskset -c 1): not one idle or iowait tick in any interval
    assertThat(at(r.samples(), "cpu_busy_pct", "cpu1")).extracting(Sample::value).containsExactly(100.0, 100.0, 100.0);
    // first interval, the aggregate line: user 957390-957319 = 71, system 249014-248917 = 97, idle 1, softirq 62;
    // total 231 ticks, of which 230 neither idle nor iowait
    List<Sample> all = at(r.samples(), "cpu_busy_pct", "all");
    assertThat(all.get(0).value()).isCloseTo(100.0 * 230 / 231, within(1e-9));
    assertThat(all.get(0).ts()).isEqualTo(1_796_126_131_770L); // stamped with the later snapshot
    assertThat(at(r.samples(), "cpu_softirq_pct", "all").get(0).value()).isCloseTo(100.0 * 62 / 231, within(1e-9));
    // cpu0: 18 + 63 + 2 (idle) + 32 (softirq) + 1 (steal 3573 -> 3574) = 116 ticks
    assertThat(at(r.samples(), "cpu_steal_pct", "cpu0").get(0).value()).isCloseTo(100.0 / 116, within(1e-9));
    assertThat(at(r.samples(), "cpu_busy_pct", "cpu0").get(0).value()).isCloseTo(100.0 * 114 / 116, within(1e-9));
    // third interval, cpu1: user 78, system 26, softirq 1 of 105
    assertThat(at(r.samples(), "cpu_softirq_pct", "cpu1").get(2).value()).isCloseTo(100.0 / 105, within(1e-9));
  }

  @Test
  void theWholeFileSkipsEveryLineButTheCpuLines() {
    ParseResult r = PARSER.parse(Fixtures.lines("proc/proc-stat-full.txt"), UTC);
    assertThat(r.errors()).isEmpty(); // intr, ctxt, btime, processes, procs_*, softirq lines say nothing here
    assertThat(r.samples()).hasSize(18);
    // cpu0 between the first two: user 23, system 48, idle 3, softirq 30, steal 1: 105 ticks, 102 busy
    Sample busy = at(r.samples(), "cpu_busy_pct", "cpu0").get(0);
    assertThat(busy.value()).isCloseTo(100.0 * 102 / 105, within(1e-9));
    assertThat(busy.ts()).isEqualTo(1_796_126_136_030L);
    assertThat(at(r.samples(), "cpu_softirq_pct", "cpu0").get(0).value()).isCloseTo(100.0 * 30 / 105, within(1e-9));
    // all CPUs: user 106, system 65, idle 2, softirq 30, steal 1: 204 ticks
    assertThat(at(r.samples(), "cpu_busy_pct", "all").get(0).value()).isCloseTo(100.0 * 202 / 204, within(1e-9));
    assertThat(at(r.samples(), "cpu_steal_pct", "all").get(0).value()).isCloseTo(100.0 / 204, within(1e-9));
  }

  @Test
  void withoutTimeLinesSnapshotsAreASecondApartEndingAtTheReference() {
    List<String> untimed = Fixtures.lines("proc/proc-stat-cpu1-burner.txt").stream()
        .filter(l -> !l.startsWith("#")).toList();
    ParseResult r = PARSER.parse(untimed, new ParseContext(ZoneOffset.UTC, 1_800_000_000_000L, null));
    assertThat(r.errors()).isEmpty();
    // a new snapshot begins where a CPU comes again
    assertThat(at(r.samples(), "cpu_busy_pct", "all")).extracting(Sample::ts)
        .containsExactly(1_799_999_998_000L, 1_799_999_999_000L, 1_800_000_000_000L);
  }

  @Test
  void oldKernelsShorterLinesAndBadLines() {
    ParseResult r = PARSER.parse(List.of(
        "# 1796126130000",
        "cpu  100 0 50 850", // 2.4 kernels: user nice system idle only
        "cpufreq is not a CPU line",
        "# 1796126131000",
        "cpu  160 0 70 870",
        "cpu0 12 x 3 4",
        "cpu1 1 2 3"), UTC);
    assertThat(at(r.samples(), "cpu_busy_pct", "all")).extracting(Sample::value).containsExactly(80.0);
    assertThat(r.errors()).extracting(ParseError::describe).containsExactly(
        "line 6: field cpu0: tick counts must be whole numbers, got 'x'",
        "line 7: field cpu1: expected at least 4 tick counts (user nice system idle), got 3");
  }

  /** The sampler reads at its start and on each wall-clock second: its first two readings can share a tick. */
  @Test
  void readingsWithinOneTickGiveNothingAndNoError() {
    ParseResult r = PARSER.parse(List.of(
        "# 1796126130995",
        "cpu  100 0 50 850 0 0 0 0",
        "cpu0 100 0 50 850 0 0 0 0",
        "# 1796126131000",
        "cpu  100 0 50 850 0 0 0 0",
        "cpu0 100 0 50 850 0 0 0 0",
        "# 1796126132000",
        "cpu  160 0 70 870 0 0 0 0",
        "cpu0 160 0 70 870 0 0 0 0"), UTC);
    assertThat(r.errors()).isEmpty();
    // the second reading (5 ms after the first) gives nothing; the third is set against the first
    assertThat(at(r.samples(), "cpu_busy_pct", "cpu0")).extracting(Sample::value, Sample::ts)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(80.0, 1_796_126_132_000L));
  }

  @Test
  void aResetGivesAnErrorAndATickStepBackCountsAsNone() {
    ProcStatParser.Times before = new ProcStatParser.Times(1000, 0, 500, 9000, 40, 0, 10, 0);
    ProcStatParser.Times reboot = new ProcStatParser.Times(10, 0, 5, 90, 0, 0, 0, 0);
    assertThat(ProcStatParser.use("cpu0", before, reboot, 1, 0).errors()).extracting(ParseError::describe)
        .containsExactly("field cpu0: " + ProcStatParser.WENT_DOWN);
    // iowait one tick back (tickless kernels): counted as 0, the other columns as they are
    ProcStatParser.Times later = new ProcStatParser.Times(1060, 0, 520, 9020, 39, 0, 10, 0);
    assertThat(ProcStatParser.use("cpu0", before, later, 1, 0).samples()).first()
        .satisfies(s -> assertThat(s.value()).isCloseTo(100.0 * 80 / 100, within(1e-9)));
    // no tick passed: nothing, and no error (readingsWithinOneTickGiveNothingAndNoError)
    assertThat(ProcStatParser.use("cpu0", before, before, 1, 0)).satisfies(r -> {
      assertThat(r.errors()).isEmpty();
      assertThat(r.samples()).isEmpty();
    });
  }

  @Test
  void aStreamedLineIsReadAloneAsARowOrNothing() {
    assertThat(ProcStatParser.row("cpu3 1 2 3 4 5 6 7 8 9 10", 0).counters())
        .isEqualTo(new ProcStatParser.Times(1, 2, 3, 4, 5, 6, 7, 8));
    assertThat(ProcStatParser.row("cpu  1 2 3 4 5 6 7 8 9 10", 0).scope()).isEqualTo("all");
    assertThat(ProcStatParser.row("intr 33653238 0 0", 0)).isEqualTo(ProcReadings.Row.none());
    assertThat(ProcStatParser.row("# 1796126130641", 0)).isEqualTo(ProcReadings.Row.none());
    assertThat(ProcStatParser.row("cpu0 99999999999999999999 0 0 0", 0).error()).isNotNull(); // past a long: no throw
    assertThat(ProcStatParser.isCpuMetric("cpu_busy_pct")).isTrue();
    assertThat(ProcStatParser.isCpuMetric("rx_pps")).isFalse();
  }
}
