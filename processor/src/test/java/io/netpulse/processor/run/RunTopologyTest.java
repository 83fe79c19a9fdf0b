package io.netpulse.processor.run;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.processor.SampleRows;
import io.netpulse.processor.TestDrivers;
import io.netpulse.processor.topology.Recorded;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RunTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final String VALUES = "test.run-values";
  private static final long T = Instant.parse("2026-11-30T05:48:56Z").toEpochMilli();

  private TopologyTestDriver driver;
  /** metrics: each sample piped as its one-value row, keyed by host */
  private TestInputTopic<String, WideSample> rows;
  private TestInputTopic<String, byte[]> runs;
  private TestInputTopic<String, byte[]> toolOutput;
  private TestOutputTopic<String, RunValue> values;
  private TestOutputTopic<String, SteadyEvent> steady;
  private TestOutputTopic<String, DeadLetter> dlq;

  @BeforeEach
  void setUp() {
    driver = TestDrivers.driver(new RunTopology(TOPICS).build(VALUES), "run-test");
    rows = TestDrivers.jsonInput(driver, TOPICS.metrics(), WideSample.class);
    runs = TestDrivers.bytesInput(driver, TOPICS.runs());
    toolOutput = TestDrivers.bytesInput(driver, TOPICS.toolOutput());
    values = TestDrivers.jsonOutput(driver, VALUES, RunValue.class);
    steady = TestDrivers.jsonOutput(driver, TOPICS.steady(), SteadyEvent.class);
    dlq = TestDrivers.jsonOutput(driver, TOPICS.dlq(), DeadLetter.class);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private void phase(String run, String test, int repetition, Phase phase, long ts) {
    runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", test, repetition, phase, ts, null, null, null,
        null)), ts);
  }

  /** A lifecycle event as the launcher writes it: the test's name, its plan type, SUT and interface. */
  private void typedPhase(String run, String test, String type, String sut, String iface, Phase phase, long ts) {
    runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", test, 1, phase, ts, null, type, sut, iface)),
        ts);
  }

  private void sample(Sample s) {
    SampleRows.pipe(rows, s.host(), s);
  }

  private Map<String, RunValue> latestByRepetitionAndMetric() {
    Map<String, RunValue> m = new LinkedHashMap<>();
    for (RunValue v : values.readValuesToList()) {
      m.put(v.repetition() + "/" + v.metric(), v);
    }
    return m;
  }

  @Test
  void sarBandwidthIsTheMeanOnTheSutOverTheMeasuringWindowOnly() {
    phase("run-1", "rx_bandwidth", 1, Phase.WARMUP, T - 10_000);
    phase("run-1", "rx_bandwidth", 1, Phase.MEASURING, T);
    for (Sample s : RecordedSeries.sar("ramp-plateau.txt", "sut", "run-1")) {
      sample(s);
      // the peer sees a small share of the traffic on its own interface: not the SUT
      sample(new Sample(1, s.metric(), s.value() / 50, s.unit(), "peer", "eth0", s.ts(), "run-1", Sources.SAR_DEV, false,
          null, null));
    }
    phase("run-1", "rx_bandwidth", 1, Phase.DONE, T + 10_000);
    RunValue v = latestByRepetitionAndMetric().get("1/rx_bps");
    // sar's row W covers (W - 1 s + phase, W + phase]: of the rows stamped in the window 05:48:56 … 05:49:05, the
    // first may hold part of the warm-up; the nine lo rows 05:48:57 … 05:49:05 of ramp-plateau.txt, rxkB/s read
    // by hand: mean 195658.93667
    assertThat(v.value()).isCloseTo(195658.93667 * 8192, within(1.0));
    assertThat(v.host()).isEqualTo("sut");
    assertThat(v.iface()).isEqualTo("lo");
    assertThat(v.inputs()).isEqualTo(9);
    assertThat(v.plan()).isEqualTo("plan-a");
    assertThat(v.unit()).isEqualTo("bit/s");
    assertThat(v.windowStart()).isEqualTo(T);
    assertThat(v.windowEnd()).isEqualTo(T + 10_000);
  }

  @Test
  void aSecondOnlyPartlyInsideTheMeasuringWindowDoesNotCount() {
    // the clients are stopped at T + 10.4 s; sar's row stamped T + 10 s covers (T + 9 s + phase, T + 10 s + phase]:
    // with a phase over 0.4 s part of it has no traffic, and it reads low (here 500 where whole seconds read 1000)
    phase("run-11", "rx_pps", 1, Phase.MEASURING, T + 400);
    sample(Sample.of("rx_pps", 1, "packets/s", "eth0", T).withOrigin("sut", "run-11", Sources.SAR_DEV)); // warm-up
    sample(Sample.of("rx_pps", 600, "packets/s", "eth0", T + 1_000).withOrigin("sut", "run-11", Sources.SAR_DEV));
    for (int i = 2; i <= 9; i++) {
      sample(Sample.of("rx_pps", 1_000, "packets/s", "eth0", T + i * 1_000L).withOrigin("sut", "run-11", Sources.SAR_DEV));
    }
    sample(Sample.of("rx_pps", 500, "packets/s", "eth0", T + 10_000).withOrigin("sut", "run-11", Sources.SAR_DEV));
    phase("run-11", "rx_pps", 1, Phase.STOPPING, T + 10_400);
    RunValue v = latestByRepetitionAndMetric().get("1/rx_pps");
    // rows T + 2 s … T + 9 s: wholly inside [T + 0.4 s, T + 10.4 s] whatever the phase
    assertThat(v.value()).isEqualTo(1_000.0);
    assertThat(v.inputs()).isEqualTo(8);
  }

  @Test
  void aLaterMeasuringOfAnOpenWindowMovesItsStart() {
    // a precision stop judged from after a level shift (a burst credit ran out at T + 5 s): the launcher publishes
    // MEASURING again at the judged start before it stops; the burst's seconds are not the value
    phase("run-15", "rx_pps", 1, Phase.MEASURING, T);
    for (int i = 1; i <= 15; i++) {
      sample(Sample.of("rx_pps", i <= 5 ? 3_000 : 1_000, "packets/s", "eth0", T + i * 1_000L)
          .withOrigin("sut", "run-15", Sources.SAR_DEV));
    }
    phase("run-15", "rx_pps", 1, Phase.MEASURING, T + 5_000);
    phase("run-15", "rx_pps", 1, Phase.MEASURING, T + 1_000); // an earlier one, replayed: does not move it back
    phase("run-15", "rx_pps", 1, Phase.STOPPING, T + 15_000);
    RunValue v = latestByRepetitionAndMetric().get("1/rx_pps");
    assertThat(v.value()).isEqualTo(1_000.0);
    assertThat(v.windowStart()).isEqualTo(T + 5_000);
    assertThat(v.inputs()).isEqualTo(9); // rows T + 6 s … T + 14 s
  }

  @Test
  void aValueSaysWhyItsMeasuringEndedAndThePrecisionItHas() {
    // 20 whole seconds alternating 1010 / 990: the 10 batch means of 2 are all 1000, so the half-width is 0
    phase("run-16", "rx_pps", 1, Phase.MEASURING, T);
    sample(Sample.of("rx_pps", 5, "packets/s", "eth0", T).withOrigin("sut", "run-16", Sources.SAR_DEV)); // warm-up
    for (int i = 1; i <= 20; i++) {
      sample(Sample.of("rx_pps", i % 2 == 0 ? 990 : 1010, "packets/s", "eth0", T + i * 1_000L)
          .withOrigin("sut", "run-16", Sources.SAR_DEV));
    }
    runs.pipeInput("run-16", Json.bytes(RunEvent.ofRepetition("run-16", "plan-a", "rx_pps", 1, Phase.STOPPING,
        T + 21_000, null, null, null, null).withStopReason(RunEvent.STOP_PRECISE)), T + 21_000);
    RunValue v = latestByRepetitionAndMetric().get("1/rx_pps");
    assertThat(v.inputs()).isEqualTo(20);
    assertThat(v.value()).isEqualTo(1_000.0);
    assertThat(v.stopReason()).isEqualTo(RunEvent.STOP_PRECISE);
    assertThat(v.precision()).isEqualTo(0.0);

    // 1000, 1010, 1010, 1020, 1020, …: 10 batch means of 2, 1005 … 1095, have a lag-1 correlation of 0.7 (> 0.3),
    // and 5 batches of 4, 1010 … 1090, still 0.4 at the floor of 5 batches: no honest half-width
    phase("run-17", "rx_pps", 1, Phase.MEASURING, T);
    for (int i = 1; i <= 20; i++) {
      double x = 1000 + 10 * ((i - 1) / 2) + ((i - 1) % 2 == 0 ? 0 : 10);
      sample(Sample.of("rx_pps", x, "packets/s", "eth0", T + i * 1_000L).withOrigin("sut", "run-17", Sources.SAR_DEV));
    }
    phase("run-17", "rx_pps", 1, Phase.STOPPING, T + 21_000); // an older launcher: no reason
    RunValue w = latestByRepetitionAndMetric().get("1/rx_pps");
    assertThat(w.value()).isEqualTo(1_050.0);
    assertThat(w.stopReason()).isNull();
    assertThat(w.precision()).isNull();

    // iid-like noise with no trend: a half-width, as a fraction of the mean, that is the batch means' by hand
    phase("run-18", "rx_pps", 1, Phase.MEASURING, T);
    double[] noise = {3, -1, 4, -1, -5, 9, -2, 6, -5, 3, -5, 8, -9, 7, -9, 3, -2, 3, -8, 4};
    for (int i = 1; i <= 20; i++) {
      sample(Sample.of("rx_pps", 1000 + noise[i - 1], "packets/s", "eth0", T + i * 1_000L)
          .withOrigin("sut", "run-18", Sources.SAR_DEV));
    }
    runs.pipeInput("run-18", Json.bytes(RunEvent.ofRepetition("run-18", "plan-a", "rx_pps", 1, Phase.STOPPING,
        T + 21_000, null, null, null, null).withStopReason(RunEvent.STOP_DURATION)), T + 21_000);
    RunValue u = latestByRepetitionAndMetric().get("1/rx_pps");
    double[] batch = new double[10];
    for (int k = 0; k < 10; k++) {
      batch[k] = 1000 + (noise[2 * k] + noise[2 * k + 1]) / 2;
    }
    double grand = java.util.Arrays.stream(batch).average().orElseThrow();
    double squares = java.util.Arrays.stream(batch).map(m -> (m - grand) * (m - grand)).sum();
    double byHand = 2.262157 * Math.sqrt(2 * (squares / 9) / 20) / grand; // t(0.975, 9)
    assertThat(u.stopReason()).isEqualTo(RunEvent.STOP_DURATION);
    assertThat(u.precision()).isCloseTo(byHand, within(1e-6));
  }

  @Test
  void aRepetitionThatFailsHalfWayGivesNoValueAndTheNextOneCounts() {
    List<Sample> recorded = RecordedSeries.sar("ramp-plateau.txt", "sut", "run-2");
    phase("run-2", "rx_bandwidth", 1, Phase.MEASURING, T);
    recorded.stream().filter(s -> s.ts() < T + 5_000).forEach(this::sample);
    phase("run-2", "rx_bandwidth", 1, Phase.FAILED, T + 5_000);
    phase("run-2", "rx_bandwidth", 1, Phase.DONE, T + 5_500); // a phase after the failure closes nothing
    phase("run-2", "rx_bandwidth", 2, Phase.MEASURING, T + 6_000);
    recorded.stream().filter(s -> s.ts() >= T + 5_000).forEach(this::sample);
    phase("run-2", "rx_bandwidth", 2, Phase.STOPPING, T + 9_000);
    Map<String, RunValue> out = latestByRepetitionAndMetric();
    assertThat(out).doesNotContainKey("1/rx_bps");
    // window 05:49:02 … 05:49:05: rows :03 and :04 lie wholly inside it, read by hand: (195580.74 + 195707.21) / 2
    assertThat(out.get("2/rx_bps").value()).isCloseTo((195580.74 + 195707.21) / 2 * 8192, within(1.0));
    assertThat(out.get("2/rx_bps").inputs()).isEqualTo(2);
  }

  @Test
  void lateAndOutOfOrderSamplesInsideTheWindowCorrectTheValueAndOthersAreIgnored() {
    phase("run-3", "rx_pps", 1, Phase.MEASURING, T - 1_000); // rows T … T + 2 s lie wholly inside
    sample(Sample.of("rx_pps", 300, "packets/s", "eth0", T + 2_000).withOrigin("sut", "run-3", Sources.SAR_DEV));
    sample(Sample.of("rx_pps", 100, "packets/s", "eth0", T).withOrigin("sut", "run-3", Sources.SAR_DEV)); // out of order
    phase("run-3", "rx_pps", 1, Phase.DONE, T + 3_000);
    assertThat(values.readValue().value()).isEqualTo(200.0);
    // arrives after the close (another topic, another partition): the value is corrected
    sample(Sample.of("rx_pps", 500, "packets/s", "eth0", T + 1_000).withOrigin("sut", "run-3", Sources.SAR_DEV));
    RunValue corrected = values.readValue();
    assertThat(corrected.value()).isEqualTo(300.0);
    assertThat(corrected.inputs()).isEqualTo(3);
    // after the window, and summaries, count for nothing
    sample(Sample.of("rx_pps", 9_999, "packets/s", "eth0", T + 3_000).withOrigin("sut", "run-3", Sources.SAR_DEV));
    sample(Sample.of("rx_pps", 9_999, "packets/s", "eth0", T + 1_500).withOrigin("sut", "run-3", Sources.SAR_DEV).asSummary());
    assertThat(values.isEmpty()).isTrue();
  }

  private void netperf(String run, int repetition, String instance, String fixture, String command) {
    toolOutput.pipeInput(run, Json.bytes(new ToolOutputEvent(ToolOutputEvent.SCHEMA, run, "tcp_crr", repetition,
        "client-" + instance, "client", "netperf", instance, command, 0, Recorded.output(fixture), "", T, T + 2_000)),
        T + 2_000); // record time as the collector would stamp it, not the test's wall clock
  }

  @Test
  void netperfCrrIsTheSumOverInstancesEachCountedOnceEvenWhenTheOutputComesAfterTheClose() {
    phase("run-4", "tcp_crr", 1, Phase.MEASURING, T);
    netperf("run-4", 1, "12866", "netperf/netperf-tcp-crr.txt", "netperf -t TCP_CRR -- -r 64");
    phase("run-4", "tcp_crr", 1, Phase.DONE, T + 3_000);
    assertThat(values.readValue().value()).isEqualTo(10608.61);
    netperf("run-4", 1, "12868", "netperf/netperf-tcp-crr.txt", "netperf -t TCP_CRR -- -r 64");
    netperf("run-4", 1, "12868", "netperf/netperf-tcp-crr.txt", "netperf -t TCP_CRR -- -r 64"); // delivered twice
    List<RunValue> out = values.readValuesToList();
    RunValue last = out.get(out.size() - 1);
    assertThat(last.metric()).isEqualTo("connections_per_s");
    assertThat(last.value()).isCloseTo(2 * 10608.61, within(1e-6));
    assertThat(last.inputs()).isEqualTo(2);
    assertThat(last.unit()).isEqualTo("connections/s");
  }

  @Test
  void concurrentConnectionsAreTheMaximumOfTcpEstabOverTheWindow() {
    List<Sample> ss = RecordedSeries.ss("server", "run-5");
    long first = ss.get(0).ts();
    phase("run-5", "concurrent_connections", 1, Phase.MEASURING, first);
    ss.forEach(this::sample);
    phase("run-5", "concurrent_connections", 1, Phase.DONE, ss.get(ss.size() - 1).ts() + 1);
    RunValue v = latestByRepetitionAndMetric().get("1/tcp_estab");
    assertThat(v.value()).isEqualTo(620.0); // ss-ramp.txt: estab climbs 10 → 620 and stays
    assertThat(v.host()).isEqualTo("server");
  }

  @Test
  void steadyIsReportedOnceOnTheRecordedPlateauAndNeverOnTheAlternatingSeries() {
    RecordedSeries.sar("ramp-plateau.txt", "sut", "run-6").stream()
        .filter(s -> s.metric().equals("rx_bps") && s.iface().equals("lo")).forEach(this::sample);
    List<SteadyEvent> settled = steady.readValuesToList();
    assertThat(settled).hasSize(1);
    SteadyEvent e = settled.get(0);
    // ramp-plateau.txt: four steps up until 05:48:54 (194748.68 kB/s), then flat within 0.6 %; the
    // first 10-s window that lies wholly on the plateau ends at 05:49:03
    assertThat(Instant.ofEpochMilli(e.ts())).isEqualTo(Instant.parse("2026-11-30T05:49:03Z"));
    assertThat(e.spread()).isLessThan(0.01);
    assertThat(e.run()).isEqualTo("run-6");
    assertThat(e.metric()).isEqualTo("rx_bps");

    RecordedSeries.sar("unsettled.txt", "sut", "run-7").stream()
        .filter(s -> s.metric().equals("rx_bps") && s.iface().equals("lo")).forEach(this::sample);
    assertThat(steady.isEmpty()).isTrue();
  }

  @Test
  void aRunsOwnThresholdsFromItsLifecycleOverrideTheDefaults() {
    // the unsettled series never settles under the default 5 % spread; a run that allows 60 % over 3 s does
    List<Sample> series = RecordedSeries.sar("unsettled.txt", "sut", "run-10").stream()
        .filter(s -> s.metric().equals("rx_bps") && s.iface().equals("lo")).toList();
    runs.pipeInput("run-10", Json.bytes(RunEvent.ofRepetition("run-10", "plan-a", "rx", 1, Phase.WARMUP,
        series.get(0).ts(), null, "rx_bandwidth", "sut", "lo").inExecution("plan-a-x", new RunEvent.Steady(3000, 0.6,
        0.005))),
        series.get(0).ts());
    series.forEach(this::sample);
    List<SteadyEvent> settled = steady.readValuesToList();
    assertThat(settled).isNotEmpty();
    assertThat(settled.get(0).windowMs()).isLessThanOrEqualTo(3000);
    assertThat(settled.get(0).spread()).isLessThanOrEqualTo(0.6).isGreaterThan(0.05);
  }

  @Test
  void samplesBeforeTheTrafficStartsAndAFlatConnectionCountBeforeTheRampAreNotSteady() {
    long t0 = T;
    typedPhase("run-11", "cc", "concurrent_connections", "server", null, Phase.PREPARING, t0 - 20_000);
    for (long t = t0 - 15_000; t < t0; t += 1000) { // samplers run before the clients: flat, pre-traffic
      sample(new Sample(1, "rx_pps", 5000, "packets/s", "server", "eth0", t, "run-11", Sources.SAR_DEV, false, null, null));
      sample(new Sample(1, "tcp_estab", 1, "connections", "server", null, t, "run-11", "ss-summary", false, null,
          null));
    }
    assertThat(steady.readValuesToList()).isEmpty();
    typedPhase("run-11", "cc", "concurrent_connections", "server", null, Phase.WARMUP, t0);
    for (long t = t0; t < t0 + 12_000; t += 1000) { // the client JVM still starting: estab flat at 1
      sample(new Sample(1, "tcp_estab", 1, "connections", "server", null, t, "run-11", "ss-summary", false, null,
          null));
    }
    assertThat(steady.readValuesToList()).as("flat before any rise").isEmpty();
    for (long t = t0 + 12_000; t < t0 + 30_000; t += 1000) { // ramp to 3000 in 3 s, then held
      double estab = Math.min(3000, 1 + (t - t0 - 11_000) / 1000 * 1000);
      sample(new Sample(1, "tcp_estab", estab, "connections", "server", null, t, "run-11", "ss-summary", false, null,
          null));
    }
    List<SteadyEvent> settled = steady.readValuesToList();
    assertThat(settled).hasSize(1);
    assertThat(settled.get(0).value()).isEqualTo(3000.0);
  }

  @Test
  void withTheRunsOwnShortWindowTheConnectionCountSettlesOnceHeld() {
    long t0 = T;
    RunEvent.Steady own = new RunEvent.Steady(3000, 0.05, 0.005);
    for (Phase p : List.of(Phase.PREPARING, Phase.WARMUP)) {
      long ts = p == Phase.PREPARING ? t0 - 3000 : t0;
      runs.pipeInput("run-12", Json.bytes(RunEvent.ofRepetition("run-12", "plan-a", "cc", 1, p, ts, null,
          "concurrent_connections", "sut", null).inExecution("plan-a-x", own)), ts);
    }
    double[] estab = {1, 1, 1500, 3001, 3001, 3001, 3001, 3001, 3001};
    for (int i = 0; i < estab.length; i++) {
      sample(new Sample(1, "tcp_estab", estab[i], "connections", "sut", null, t0 + 500 + i * 1000L, "run-12",
          "ss-summary", false, null, null));
    }
    List<SteadyEvent> settled = steady.readValuesToList();
    assertThat(settled).hasSize(1);
    assertThat(settled.get(0).windowMs()).isEqualTo(3000);
  }

  @Test
  void concurrentConnectionsSettleWhenTcpEstabStopsRising() {
    List<Sample> ss = RecordedSeries.ss("server", "run-8").stream().filter(s -> s.metric().equals("tcp_estab")).toList();
    ss.forEach(this::sample);
    List<SteadyEvent> settled = steady.readValuesToList();
    assertThat(settled).hasSize(1);
    // estab reaches 620 at the 13th line and stays: settled once 10 s of 620 are seen
    long reached = ss.stream().filter(s -> s.value() == 620).findFirst().orElseThrow().ts();
    assertThat(settled.get(0).ts() - reached).isBetween(9_000L, 10_500L);
    assertThat(settled.get(0).value()).isEqualTo(620.0);
  }

  @Test
  void aRunsRecordThatIsNotARunEventGoesToTheDlq() {
    runs.pipeInput("run-9", "{\"run\":\"run-9\",\"phase\":\"SIDEWAYS\"}".getBytes(), T);
    DeadLetter d = dlq.readValue();
    assertThat(d.topic()).isEqualTo(TOPICS.runs());
    assertThat(d.error()).contains("not a run event").contains("SIDEWAYS");
  }

  @Test
  void aRunThatNamesItsSutTakesTheSutsInterfaceEvenWhenAnotherHostIsBusier() {
    typedPhase("run-10", "into-b", "rx_bandwidth", "b", "veth0", Phase.MEASURING, T - 1_000);
    for (int i = 0; i < 5; i++) {
      long ts = T + i * 1_000L;
      sample(Sample.of("rx_bps", 1_000 + i, "bit/s", "veth0", ts).withOrigin("b", "run-10", Sources.SAR_DEV));
      // b's other interface and host a carry more: neither is the SUT the run names
      sample(Sample.of("rx_bps", 50_000, "bit/s", "eth1", ts).withOrigin("b", "run-10", Sources.SAR_DEV));
      sample(Sample.of("rx_bps", 90_000, "bit/s", "veth0", ts).withOrigin("a", "run-10", Sources.SAR_DEV));
    }
    typedPhase("run-10", "into-b", "rx_bandwidth", "b", "veth0", Phase.DONE, T + 5_000);
    RunValue v = values.readValue();
    assertThat(v.metric()).isEqualTo("rx_bps");
    assertThat(v.value()).isEqualTo(1_002.0); // mean of 1000..1004
    assertThat(v.host()).isEqualTo("b");
    assertThat(v.iface()).isEqualTo("veth0");
    assertThat(v.inputs()).isEqualTo(5);
    assertThat(v.test()).isEqualTo("into-b");
    assertThat(v.resultKey()).isEqualTo("plan-a//into-b/rx_bps");
    assertThat(values.isEmpty()).isTrue();
  }

  /**
   * The launcher's labels, host facts (PREPARING) and planned repetitions go on with each value; the last planned
   * repetition failing while it measured gives an end-of-test marker per metric instead of a value.
   */
  @Test
  void valuesCarryTheProvenanceAndAFailedLastRepetitionEndsTheTest() {
    Map<String, String> labels = Map.of("instance_type", "c7.large");
    List<io.netpulse.common.event.HostInfo> facts = List.of(new io.netpulse.common.event.HostInfo("sut", "6.1",
        "cpu", 2, 1L, "eth0", "ena", 1, 1, 1500, null, Map.of()));
    String exec = "plan-a-20261201T100000Z";
    for (int rep = 1; rep <= 2; rep++) {
      String run = exec + "-r" + rep;
      long t = T + rep * 10_000L;
      runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", rep, Phase.PREPARING, t, null,
          "rx_pps", "sut", "eth0").inExecution(exec, null).withPlanLabels(labels, 2).withHostFacts(facts)), t);
      runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", rep, Phase.MEASURING, t + 1, null,
          "rx_pps", "sut", "eth0").inExecution(exec, null).withPlanLabels(labels, 2)), t + 1);
      sample(Sample.of("rx_pps", 100 * rep, "packets/s", "eth0", t + 1_000).withOrigin("sut", run, Sources.SAR_DEV));
      runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", rep,
          rep == 1 ? Phase.DONE : Phase.FAILED, t + 2_000, rep == 1 ? null : "client died", "rx_pps", "sut",
          "eth0").inExecution(exec, null).withPlanLabels(labels, 2)), t + 2_000);
    }
    List<RunValue> out = values.readValuesToList();
    assertThat(out).hasSize(2);
    RunValue value = out.get(0);
    assertThat(value.marker()).isFalse();
    assertThat(value.value()).isEqualTo(100.0);
    assertThat(value.labels()).isEqualTo(labels);
    assertThat(value.hostFacts()).isEqualTo(facts);
    assertThat(value.repetitionsPlanned()).isEqualTo(2);
    assertThat(value.resultKey()).isEqualTo("plan-a/" + exec + "/pps/rx_pps");
    RunValue marker = out.get(1);
    assertThat(marker.marker()).isTrue();
    assertThat(marker.repetition()).isEqualTo(2);
    assertThat(marker.resultKey()).isEqualTo(value.resultKey());
  }

  /**
   * An interrupted execution (Ctrl-C): the launcher marks FAILED, with stopReason "interrupted", the repetition under
   * way, here the second of three. It gives no value, but ends the test: an end-of-test marker per metric carries
   * the reason, although it is not the last planned repetition.
   */
  @Test
  void anInterruptedRepetitionEndsTheTestBeforeItsLastPlannedOne() {
    String exec = "plan-a-20261201T110000Z";
    for (int rep = 1; rep <= 2; rep++) {
      String run = exec + "-r" + rep;
      long t = T + rep * 10_000L;
      runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", rep, Phase.PREPARING, t, null,
          "rx_pps", "sut", "eth0").inExecution(exec, null).withPlanLabels(Map.of(), 3)), t);
      runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", rep, Phase.MEASURING, t + 1, null,
          "rx_pps", "sut", "eth0").inExecution(exec, null).withPlanLabels(Map.of(), 3)), t + 1);
      sample(Sample.of("rx_pps", 100 * rep, "packets/s", "eth0", t + 1_000).withOrigin("sut", run, Sources.SAR_DEV));
      RunEvent end = RunEvent.ofRepetition(run, "plan-a", "pps", rep, rep == 1 ? Phase.DONE : Phase.FAILED, t + 2_000,
          rep == 1 ? null : "interrupted (SIGINT/SIGTERM, e.g. Ctrl-C)", "rx_pps", "sut", "eth0").inExecution(exec,
          null)
          .withPlanLabels(Map.of(), 3);
      runs.pipeInput(run, Json.bytes(rep == 1 ? end : end.withStopReason(RunEvent.INTERRUPTED)), t + 2_000);
    }
    List<RunValue> out = values.readValuesToList();
    assertThat(out).extracting(RunValue::marker).containsExactly(false, true);
    assertThat(out.get(0).value()).isEqualTo(100.0);
    assertThat(out.get(0).stopReason()).isNull();
    assertThat(out.get(1).repetition()).isEqualTo(2);
    assertThat(out.get(1).repetitionsPlanned()).isEqualTo(3);
    assertThat(out.get(1).stopReason()).isEqualTo(RunEvent.INTERRUPTED);
    assertThat(out.get(1).resultKey()).isEqualTo(out.get(0).resultKey());

    // between two repetitions: the launcher marks the next one, which never started; a plain FAILED of a repetition
    // that is not the last planned one ends nothing
    String exec2 = "plan-a-20261201T120000Z";
    long t = T + 60_000;
    runs.pipeInput(exec2 + "-r2", Json.bytes(RunEvent.ofRepetition(exec2 + "-r2", "plan-a", "pps", 2, Phase.FAILED, t,
        "port in use", "rx_pps", "sut", "eth0").inExecution(exec2, null).withPlanLabels(Map.of(), 3)), t);
    assertThat(values.isEmpty()).isTrue();
    runs.pipeInput(exec2 + "-r3", Json.bytes(RunEvent.ofRepetition(exec2 + "-r3", "plan-a", "pps", 3, Phase.FAILED,
        t + 1, "interrupted", "rx_pps", "sut", "eth0").inExecution(exec2, null).withPlanLabels(Map.of(), 3)
        .withStopReason(RunEvent.INTERRUPTED)), t + 1);
    RunValue next = values.readValue();
    assertThat(next.marker()).isTrue();
    assertThat(next.stopReason()).isEqualTo(RunEvent.INTERRUPTED);
    assertThat(next.resultKey()).isEqualTo("plan-a/" + exec2 + "/pps/rx_pps");

    // interrupted while stopping, after its window closed: the value counts, and the marker follows it
    String exec3 = "plan-a-20261201T130000Z";
    String run = exec3 + "-r1";
    long t3 = T + 120_000;
    runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", 1, Phase.MEASURING, t3, null, "rx_pps",
        "sut", "eth0").inExecution(exec3, null).withPlanLabels(Map.of(), 3)), t3);
    sample(Sample.of("rx_pps", 700, "packets/s", "eth0", t3 + 1_000).withOrigin("sut", run, Sources.SAR_DEV));
    runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", 1, Phase.STOPPING, t3 + 2_000, null,
        "rx_pps", "sut", "eth0").inExecution(exec3, null).withPlanLabels(Map.of(), 3)), t3 + 2_000);
    runs.pipeInput(run, Json.bytes(RunEvent.ofRepetition(run, "plan-a", "pps", 1, Phase.FAILED, t3 + 2_100,
        "interrupted", "rx_pps", "sut", "eth0").inExecution(exec3, null).withPlanLabels(Map.of(), 3)
        .withStopReason(RunEvent.INTERRUPTED)), t3 + 2_100);
    List<RunValue> closed = values.readValuesToList();
    assertThat(closed).extracting(RunValue::marker).containsExactly(false, true);
    assertThat(closed.get(0).value()).isEqualTo(700.0);
  }

  @Test
  void twoTestsOfOneTypeInOnePlanGiveTwoResultKeys() {
    typedPhase("run-11", "small", "rx_pps", "sut", "eth0", Phase.MEASURING, T);
    sample(Sample.of("rx_pps", 100, "packets/s", "eth0", T + 1_000).withOrigin("sut", "run-11", Sources.SAR_DEV));
    typedPhase("run-11", "small", "rx_pps", "sut", "eth0", Phase.DONE, T + 2_000);
    typedPhase("run-11", "large", "rx_pps", "sut", "eth0", Phase.MEASURING, T + 3_000);
    sample(Sample.of("rx_pps", 700, "packets/s", "eth0", T + 4_000).withOrigin("sut", "run-11", Sources.SAR_DEV));
    typedPhase("run-11", "large", "rx_pps", "sut", "eth0", Phase.DONE, T + 5_000);
    Map<String, Double> byKey = new LinkedHashMap<>();
    values.readKeyValuesToList().forEach(kv -> byKey.put(kv.key, kv.value.value()));
    assertThat(byKey).containsExactly(Map.entry("plan-a//small/rx_pps", 100.0), Map.entry("plan-a//large/rx_pps", 700.0));
  }

  /**
   * udp_stream in seed 002's shape: the run names the SUT's interface (the SUT runs sar), so its headline is sar's
   * rx_pps on the SUT, with the senders' sums beside it; a sender's own sar rows never stand in for the SUT's.
   */
  @Test
  void udpStreamWithSarOnTheSutGivesTheSutsRxPpsAndTheSendersSums() {
    typedPhase("run-13", "udp", "udp_stream", "sut", "eth0", Phase.MEASURING, T - 1_000);
    for (int i = 0; i < 4; i++) {
      long ts = T + i * 1_000L;
      sample(Sample.of("rx_pps", 40_000 + i, "packets/s", "eth0", ts).withOrigin("sut", "run-13", Sources.SAR_DEV));
      // the sender's sar: what it offers, on record under its own name, far above what the SUT receives
      sample(Sample.of("rx_pps", 90_000, "packets/s", "eth0", ts).withOrigin("peer", "run-13", Sources.SAR_DEV));
    }
    tool("run-13", "udp", "netperf", "netperf/netperf-udp-stream.txt", "netperf -t UDP_STREAM -- -m 1");
    typedPhase("run-13", "udp", "udp_stream", "sut", "eth0", Phase.DONE, T + 4_000);
    Map<String, RunValue> out = latestByRepetitionAndMetric();
    assertThat(out.keySet()).containsExactlyInAnyOrder("1/rx_pps", "1/send_pps", "1/recv_pps", "1/send_bps",
        "1/recv_bps");
    // rows T … T + 3 s lie wholly inside [T - 1 s, T + 4 s]: mean of 40000 … 40003
    assertThat(out.get("1/rx_pps").value()).isEqualTo(40_001.5);
    assertThat(out.get("1/rx_pps").host()).isEqualTo("sut");
    assertThat(out.get("1/rx_pps").unit()).isEqualTo("packets/s");
    // netperf-udp-stream.txt: 305852 messages okay in 2.00 s
    assertThat(out.get("1/send_pps").value()).isCloseTo(152_926.0, within(1e-6));
  }

  /** udp_stream in seed 003's shape names no SUT interface: messages okay ÷ elapsed, and no rx_pps even with sar rows. */
  @Test
  void udpStreamWithoutSarOnTheSutGivesTheSendersSumsOnly() {
    typedPhase("run-14", "udp", "udp_stream", "sut", null, Phase.MEASURING, T - 1_000);
    for (int i = 0; i < 4; i++) {
      sample(Sample.of("rx_pps", 90_000, "packets/s", "eth0", T + i * 1_000L).withOrigin("peer", "run-14", Sources.SAR_DEV));
      sample(Sample.of("rx_pps", 40_000, "packets/s", "eth0", T + i * 1_000L).withOrigin("sut", "run-14", Sources.SAR_DEV));
    }
    tool("run-14", "udp", "netperf", "netperf/netperf-udp-stream.txt", "netperf -t UDP_STREAM -- -m 1");
    typedPhase("run-14", "udp", "udp_stream", "sut", null, Phase.DONE, T + 4_000);
    assertThat(latestByRepetitionAndMetric().keySet()).containsExactlyInAnyOrder("1/send_pps", "1/recv_pps",
        "1/send_bps", "1/recv_bps");
  }

  private void tool(String run, String test, String tool, String fixture, String command) {
    toolOutput.pipeInput(run, Json.bytes(new ToolOutputEvent(ToolOutputEvent.SCHEMA, run, test, 1, "client-" + tool,
        "client", tool, "0", command, 0, Recorded.output(fixture), "", T, T + 2_000)), T + 2_000);
  }

  @Test
  void aLatencyTestGivesQperfsTwoLatenciesAndPingsAverage() {
    Map<String, RunValue> out = latencyRun("run-12", "ping/ping-ns.txt", "ping -c 5 198.18.0.2");
    assertThat(out.keySet()).containsExactlyInAnyOrder("1/tcp_lat_us", "1/udp_lat_us", "1/rtt_avg_ms");
    // qperf-lat-vvu.txt prints "latency = 11.7 us" and "17.5 us"; ping-ns.txt "rtt ... = 0.038/0.070/..."
    assertThat(out.get("1/tcp_lat_us").value()).isEqualTo(11.7);
    assertThat(out.get("1/udp_lat_us").value()).isEqualTo(17.5);
    assertThat(out.get("1/rtt_avg_ms").value()).isEqualTo(0.070);
    assertThat(out.get("1/tcp_lat_us").unit()).isEqualTo("us");
    assertThat(out.get("1/rtt_avg_ms").unit()).isEqualTo("ms");
    assertThat(out.get("1/rtt_avg_ms").resultKey()).isEqualTo("plan-a//lat/rtt_avg_ms");
  }

  /**
   * ping's rtt avg is the mean of its replies, one a second: its value says its precision as a sampler's mean does,
   * by batch means over the replies in the order printed; qperf's printed latencies have no per-second figures, and
   * 5 replies are too few (under the 10 a precision needs).
   */
  @Test
  void pingsAverageSaysItsPrecisionFromItsRepliesAndAFigureWithoutRepliesDoesNot() {
    Map<String, RunValue> out = latencyRun("run-15", "ping/ping-lo-20.txt", "ping -c 20 127.0.0.1");
    double[] replies = new io.netpulse.tools.ping.PingParser()
        .parse(Recorded.output("ping/ping-lo-20.txt").lines().toList(), new io.netpulse.tools.parse.ParseContext(
            java.time.ZoneOffset.UTC, T, null))
        .samples().stream().filter(x -> x.metric().equals("rtt_ms")).mapToDouble(Sample::value).toArray();
    assertThat(replies).hasSize(20);
    assertThat(out.get("1/rtt_avg_ms").value()).isEqualTo(0.042); // as ping printed it
    assertThat(out.get("1/rtt_avg_ms").precision()).isNotNull().isPositive()
        .isEqualTo(RunValueCalculator.precision(replies));
    assertThat(out.get("1/tcp_lat_us").precision()).isNull();
    assertThat(out.get("1/udp_lat_us").precision()).isNull();

    RunValue fewReplies = latencyRun("run-16", "ping/ping-ns.txt", "ping -c 5 198.18.0.2").get("1/rtt_avg_ms");
    assertThat(fewReplies.run()).isEqualTo("run-16");
    assertThat(fewReplies.precision()).isNull();
  }

  /** A latency repetition of seed 000's shape: qperf's captured tcp_lat and udp_lat, then the given ping output. */
  private Map<String, RunValue> latencyRun(String run, String pingFixture, String pingCommand) {
    typedPhase(run, "lat", "latency", "sut", null, Phase.MEASURING, T);
    tool(run, "lat", "qperf", "qperf/qperf-lat-vvu.txt", "qperf 198.18.0.2 tcp_lat udp_lat -m 64 -vvu");
    tool(run, "lat", "ping", pingFixture, pingCommand);
    typedPhase(run, "lat", "latency", "sut", null, Phase.DONE, T + 3_000);
    return latestByRepetitionAndMetric();
  }

  @Test
  void aLifecycleWithTypeSutAndIfaceRoundTripsThroughJsonAndOldEventsReadAsNull() throws Exception {
    RunEvent typed = RunEvent.ofRepetition("r", "p", "t", 1, Phase.DONE, T, null, "latency", "sut", "eth0");
    assertThat(Json.read(Json.bytes(typed), RunEvent.class)).isEqualTo(typed);
    RunEvent old = Json.read(("{\"schema\":1,\"run\":\"r\",\"plan\":\"p\",\"test\":\"t\",\"repetition\":1,"
        + "\"phase\":\"DONE\",\"ts\":5}").getBytes(), RunEvent.class);
    assertThat(old.type()).isNull();
    assertThat(old.sut()).isNull();
    assertThat(old.test()).isEqualTo("t");
  }

  @Test
  void aRunsStateIsForgottenHalfAnHourAfterItWasLastSeen() {
    phase("run-old", "rx_bandwidth", 1, Phase.WARMUP, T - 10_000);
    phase("run-old", "rx_bandwidth", 1, Phase.MEASURING, T);
    for (Sample s : RecordedSeries.sar("ramp-plateau.txt", "sut", "run-old")) {
      sample(s);
    }
    phase("run-old", "rx_bandwidth", 1, Phase.DONE, T + 20_000);
    assertThat(keysOf(SteadyProcessor.PLAN_STORE)).contains("run-old");
    assertThat(keysOf(SteadyProcessor.WINDOW_STORE)).anyMatch(k -> k.startsWith("run-old"));
    assertThat(keysOf(RunValueProcessor.STATE_STORE)).contains("run-old");
    // another run 31 minutes later moves stream time past the retention
    long later = T + 20_000 + RunValueProcessor.RETENTION.toMillis() + 61_000;
    phase("run-new", "rx_bandwidth", 1, Phase.WARMUP, later);
    phase("run-new", "rx_bandwidth", 1, Phase.MEASURING, later + 1_000);
    assertThat(keysOf(SteadyProcessor.PLAN_STORE)).containsExactly("run-new");
    assertThat(keysOf(SteadyProcessor.WINDOW_STORE)).noneMatch(k -> k.startsWith("run-old"));
    assertThat(keysOf(RunValueProcessor.STATE_STORE)).containsExactly("run-new");
    assertThat(keysOf(RunValueProcessor.SAMPLE_STORE)).noneMatch(k -> k.startsWith("run-old"));
  }

  @Test
  void aWindowOpenLongerThanTheRetentionIsValuedOverAllOfIt() {
    // an hour-long test: 25 minutes at 1 Gbit/s, then 25 at 2; the value is the mean over the whole window, not over
    // its last half hour (samples were once forgotten by their own time while their window was still open)
    long minutes = 50;
    typedPhase("run-long", "rx", "rx_bandwidth", "sut", "eth0", Phase.WARMUP, T - 10_000);
    typedPhase("run-long", "rx", "rx_bandwidth", "sut", "eth0", Phase.MEASURING, T);
    double sum = 0;
    int counted = 0;
    long end = T + minutes * 60_000;
    for (long ts = T + 1_000; ts <= end; ts += 1_000) {
      double bps = ts - T <= minutes * 30_000 ? 1e9 : 2e9;
      sample(new Sample(1, "rx_bps", bps, "bit/s", "sut", "eth0", ts, "run-long", Sources.SAR_DEV, false, null, null));
      if (ts - 1_000 >= T && ts + 1_000 <= end) {
        sum += bps;
        counted++;
      }
    }
    typedPhase("run-long", "rx", "rx_bandwidth", "sut", "eth0", Phase.STOPPING, end);
    RunValue v = latestByRepetitionAndMetric().get("1/rx_bps");
    assertThat(v.inputs()).isEqualTo(counted);
    assertThat(v.value()).isCloseTo(sum / counted, within(1e-3));
    assertThat(keysOf(RunValueProcessor.SAMPLE_STORE)).as("the window's samples are still kept").hasSizeGreaterThan(
        counted);
    // and once the run is no longer seen, they go with it
    long later = end + RunValueProcessor.RETENTION.toMillis() + 61_000;
    phase("run-new", "rx_bandwidth", 1, Phase.WARMUP, later);
    assertThat(keysOf(RunValueProcessor.SAMPLE_STORE)).noneMatch(k -> k.startsWith("run-long"));
  }

  private List<String> keysOf(String store) {
    List<String> keys = new java.util.ArrayList<>();
    try (var it = driver.getKeyValueStore(store).all()) {
      it.forEachRemaining(kv -> keys.add(String.valueOf(kv.key)));
    }
    return keys;
  }
}
