package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A repetition's CPU figure through the whole processor: the hosts' {@code /proc/stat} lines as the launcher streams
 * them (one line per CPU a second, stamped when read, with the run id), the lifecycle on {@code runs}, and each host's
 * {@link CpuUse} over the measuring window on {@code cpu}.
 */
@Tag("unit")
class CpuUseTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final long T = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();

  private WholeProcessorDriver driver;
  private TestOutputTopic<String, CpuUse> cpu;
  private TestOutputTopic<String, DeadLetter> dlq;
  private final Map<String, long[][]> ticks = new LinkedHashMap<>();
  private long seq;

  @BeforeEach
  void setUp() {
    driver = new WholeProcessorDriver(TOPICS, "cpu-use-test");
    cpu = driver.driver.createOutputTopic(TOPICS.cpu(), Serdes.String().deserializer(),
        JsonSerde.of(CpuUse.class).deserializer());
    dlq = driver.driver.createOutputTopic(TOPICS.dlq(), Serdes.String().deserializer(),
        JsonSerde.of(DeadLetter.class).deserializer());
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  /** A second of {@code host}'s CPUs: per CPU {user, system, idle, softirq} ticks of 100, read at {@code ts}. */
  private void second(String host, String run, long ts, long[]... perCpu) {
    long[][] total = ticks.computeIfAbsent(host, h -> new long[perCpu.length][4]);
    long[] all = new long[4];
    for (int c = 0; c < perCpu.length; c++) {
      for (int i = 0; i < 4; i++) {
        total[c][i] += perCpu[c][i];
        all[i] += total[c][i];
      }
    }
    line(host, run, ts, "cpu  " + row(all));
    for (int c = 0; c < perCpu.length; c++) {
      line(host, run, ts, "cpu" + c + " " + row(total[c]));
    }
  }

  /** /proc/stat's columns: user nice system idle iowait irq softirq steal guest guest_nice. */
  private static String row(long[] t) {
    return String.format(Locale.ROOT, "%d 0 %d %d 0 0 %d 0 0 0", t[0], t[1], t[2], t[3]);
  }

  private void line(String host, String run, long ts, String text) {
    driver.lines.pipeInput(host, Json.bytes(LineEvent.of(host, "proc-stat", run, seq++, ts, text)), ts);
  }

  private void phase(String run, Phase phase, long ts) {
    RunEvent e = RunEvent.ofRepetition(run, "plan-c", "pps", 1, phase, ts, null, "rx_pps", "sut", "eth0")
        .inExecution("plan-c-1", null);
    driver.runs.pipeInput(run, Json.bytes(e), ts);
  }

  private Map<String, CpuUse> latestByHost() {
    Map<String, CpuUse> m = new LinkedHashMap<>();
    cpu.readValuesToList().forEach(u -> m.put(u.host(), u));
    return m;
  }

  private static final long[] SOFTIRQ_FULL = {10, 10, 0, 80};
  private static final long[] THIRTY = {30, 0, 70, 0};
  private static final long[] TWENTY = {10, 10, 80, 0};

  @Test
  void oneCoreFullOfSoftirqIsSaturatedWhileAllTogetherAreNot() {
    phase("r1", Phase.WARMUP, T);
    for (int s = 0; s <= 13; s++) {
      long ts = T - 1_000 + s * 1_000L + 20; // read 20 ms past each second, as the sampler reads
      if (s == 4) {
        phase("r1", Phase.MEASURING, T + 2_000);
      }
      second("sut", "r1", ts, THIRTY, SOFTIRQ_FULL);
      second("peer", "r1", ts, TWENTY, TWENTY);
      if (s == 12) {
        phase("r1", Phase.STOPPING, T + 12_000);
      }
    }
    Map<String, CpuUse> use = latestByHost();
    CpuUse sut = use.get("sut");
    // the window is [T + 2 s, T + 12 s); lines read at W + 20 ms count when W - 1 s >= start and W + 1 s <= end:
    // those read at T + 3.02 s … T + 10.02 s, 8 seconds
    assertThat(sut.seconds()).isEqualTo(8);
    assertThat(sut.windowStart()).isEqualTo(T + 2_000);
    assertThat(sut.windowEnd()).isEqualTo(T + 12_000);
    assertThat(sut.plan()).isEqualTo("plan-c");
    assertThat(sut.execution()).isEqualTo("plan-c-1");
    assertThat(sut.all().busyMeanPct()).isCloseTo(65.0, within(1e-9)); // (30 + 100) of 200 ticks
    assertThat(sut.busiest().cpu()).isEqualTo("cpu1");
    assertThat(sut.busiest().busyMeanPct()).isCloseTo(100.0, within(1e-9));
    assertThat(sut.busiest().softirqMeanPct()).isCloseTo(80.0, within(1e-9));
    assertThat(sut.cpus()).extracting(CpuUse.Cpu::cpu).containsExactly("cpu0", "cpu1");
    assertThat(sut.saturated()).isTrue();
    assertThat(sut.saturation()).isEqualTo("cpu1 at least 95 % busy in 8 of 8 s (softirq 80.0 %, steal 0.0 % of its "
        + "time)");
    CpuUse peer = use.get("peer");
    assertThat(peer.saturated()).isFalse();
    assertThat(peer.saturation()).isNull();
    assertThat(peer.all().busyMeanPct()).isCloseTo(20.0, within(1e-9));
    assertThat(peer.all().busyMaxPct()).isCloseTo(20.0, within(1e-9));
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(driver.steady.readValuesToList()).noneMatch(e -> e.metric().startsWith("cpu_"));
  }

  @Test
  void allCpusBusyOnAverageIsSaturatedAndACoreFullForABurstIsNot() {
    phase("r2", Phase.MEASURING, T);
    for (int s = 0; s <= 11; s++) {
      long ts = T + s * 1_000L + 20;
      // sut: both CPUs 92 % busy; peer: cpu0 full for 3 of the 9 seconds counted, a burst, not half the window
      second("sut", "r2", ts, new long[] {46, 46, 8, 0}, new long[] {46, 46, 8, 0});
      boolean burst = s >= 2 && s <= 4;
      second("peer", "r2", ts, burst ? new long[] {100, 0, 0, 0} : THIRTY, TWENTY);
    }
    phase("r2", Phase.STOPPING, T + 11_000);
    Map<String, CpuUse> use = latestByHost();
    assertThat(use.get("sut").saturated()).isTrue();
    assertThat(use.get("sut").saturation()).isEqualTo("all CPUs 92.0 % busy on average (at least 90 %)");
    assertThat(use.get("sut").busiest().secondsAtLimit()).isZero();
    CpuUse peer = use.get("peer");
    assertThat(peer.seconds()).isEqualTo(9); // read at T + 1.02 s … T + 9.02 s
    assertThat(peer.busiest().secondsAtLimit()).isEqualTo(3);
    assertThat(peer.busiest().busyMaxPct()).isCloseTo(100.0, within(1e-9));
    assertThat(peer.saturated()).isFalse();
  }

  @Test
  void aLineArrivingAfterTheWindowClosedCorrectsItsHostsFigureAndAFailedRepetitionHasOne() {
    phase("r3", Phase.MEASURING, T);
    for (int s = 0; s <= 4; s++) {
      second("sut", "r3", T + s * 1_000L + 20, s == 3 ? new long[] {100, 0, 0, 0} : THIRTY);
    }
    // failed while measuring: its window still closes, and its CPU is what a user wants to see then
    phase("r3", Phase.FAILED, T + 6_500);
    List<CpuUse> first = cpu.readValuesToList();
    assertThat(first).hasSize(1);
    assertThat(first.get(0).seconds()).isEqualTo(4); // read at T + 1.02 s … T + 4.02 s
    assertThat(first.get(0).all().busyMeanPct()).isCloseTo((30 + 30 + 100 + 30) / 4.0, within(1e-9));
    // the runs topic and the lines topic are not ordered with each other: the line of 5.02 s comes after FAILED
    second("sut", "r3", T + 5_020, THIRTY);
    assertThat(cpu.isEmpty()).as("sent once for the whole snapshot, on the next second").isTrue();
    driver.driver.advanceWallClockTime(Duration.ofSeconds(1));
    List<CpuUse> again = cpu.readValuesToList();
    assertThat(again).hasSize(1);
    assertThat(again.get(0).seconds()).isEqualTo(5);
    assertThat(again.get(0).all().busyMeanPct()).isCloseTo((30 + 30 + 100 + 30 + 30) / 5.0, within(1e-9));
    assertThat(again.get(0).all().busyMaxPct()).isCloseTo(100.0, within(1e-9));
    // a line after the window gives nothing new
    second("sut", "r3", T + 7_020, THIRTY);
    driver.driver.advanceWallClockTime(Duration.ofSeconds(1));
    assertThat(cpu.isEmpty()).isTrue();
  }
}
