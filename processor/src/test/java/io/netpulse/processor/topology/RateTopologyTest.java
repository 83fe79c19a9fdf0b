package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.processor.TestDrivers;
import java.time.Duration;
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
class RateTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final long T0 = 1_796_014_834_000L; // a whole second

  private TopologyTestDriver driver;
  private TestInputTopic<String, Sample> samples;
  private TestOutputTopic<String, RateEvent> rates;
  private final Map<String, RateEvent> tenSecond = new LinkedHashMap<>();

  @BeforeEach
  void setUp() {
    driver = TestDrivers.uncached(new RateTopology(TOPICS, Duration.ofSeconds(2)).build(), "rate-test");
    samples = TestDrivers.jsonInput(driver, TOPICS.samples(), Sample.class);
    rates = TestDrivers.jsonOutput(driver, TOPICS.rates(), RateEvent.class);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private static Sample sample(String metric, double value, long ts) {
    return Sample.of(metric, value, "bit/s", "eth0", ts).withOrigin("sut", null, Sources.SAR_DEV);
  }

  /** Windows changed since the last emission are emitted on a wall-clock tick. */
  private void tick() {
    driver.advanceWallClockTime(RateTopology.DEFAULT_EMIT_EVERY);
  }

  /** Last update per series/window, as a downstream compaction would keep. */
  private Map<String, RateEvent> latest() {
    tick();
    Map<String, RateEvent> m = new LinkedHashMap<>();
    for (var kv : rates.readKeyValuesToList()) {
      if (kv.value.window().equals("1s")) {
        m.put(kv.key + "@" + kv.value.windowStart(), kv.value);
      } else {
        tenSecond.put(kv.key + "@" + kv.value.windowStart(), kv.value);
      }
    }
    return m;
  }

  @Test
  void meanMinMaxCountPerSeriesAndSecondOfTheSamplesOwnTime() {
    // record timestamps are the receive time, a second later: windows must follow the sample ts
    samples.pipeInput("sut", sample("rx_bps", 100, T0 + 100), T0 + 1100);
    samples.pipeInput("sut", sample("rx_bps", 300, T0 + 900), T0 + 1900);
    samples.pipeInput("sut", sample("rx_bps", 50, T0 + 1000), T0 + 2000);
    samples.pipeInput("sut", sample("tx_bps", 7, T0 + 500), T0 + 1500);
    Map<String, RateEvent> out = latest();
    RateEvent first = out.get("sut/eth0/rx_bps@" + T0);
    assertThat(first.mean()).isEqualTo(200.0);
    assertThat(first.min()).isEqualTo(100.0);
    assertThat(first.max()).isEqualTo(300.0);
    assertThat(first.count()).isEqualTo(2);
    assertThat(first.windowEnd()).isEqualTo(T0 + 1000);
    assertThat(first.window()).isEqualTo("1s");
    assertThat(first.unit()).isEqualTo("bit/s");
    assertThat(first.host()).isEqualTo("sut");
    assertThat(first.iface()).isEqualTo("eth0");
    assertThat(out.get("sut/eth0/rx_bps@" + (T0 + 1000)).mean()).isEqualTo(50.0);
    assertThat(out.get("sut/eth0/tx_bps@" + T0).mean()).isEqualTo(7.0);
  }

  @Test
  void outOfOrderWithinGraceCountsAndLaterThanGraceIsDropped() {
    samples.pipeInput("sut", sample("rx_pps", 10, T0 + 10));
    samples.pipeInput("sut", sample("rx_pps", 20, T0 + 1010));
    samples.pipeInput("sut", sample("rx_pps", 30, T0 + 20)); // late but within 2 s grace
    Map<String, RateEvent> out = latest();
    assertThat(out.get("sut/eth0/rx_pps@" + T0).mean()).isEqualTo(20.0);
    assertThat(out.get("sut/eth0/rx_pps@" + T0).count()).isEqualTo(2);
    samples.pipeInput("sut", sample("rx_pps", 40, T0 + 5010)); // stream time moves past the grace
    samples.pipeInput("sut", sample("rx_pps", 99, T0 + 30)); // too late: window closed
    out = latest();
    assertThat(out).doesNotContainKey("sut/eth0/rx_pps@" + T0);
    assertThat(out.get("sut/eth0/rx_pps@" + (T0 + 5000)).mean()).isEqualTo(40.0);
  }

  @Test
  void summaryRowsAreNotPerSecondValues() {
    samples.pipeInput("sut", sample("rx_bps", 1e9, T0 + 100).asSummary());
    samples.pipeInput("sut", sample("rx_bps", 5, T0 + 200));
    tick();
    List<RateEvent> out = rates.readValuesToList().stream().filter(r -> r.window().equals("1s")).toList();
    assertThat(out).hasSize(1);
    assertThat(out.get(0).mean()).isEqualTo(5.0);
  }

  @Test
  void tenSecondHoppingWindowsAdvanceEachSecondAndCoverTenSamples() {
    for (int i = 0; i < 12; i++) {
      samples.pipeInput("sut", sample("rx_bps", 100 + i, T0 + i * 1000L + 200));
    }
    latest();
    // the window [T0, T0+10s) holds samples 0..9: mean 104.5, min 100, max 109
    RateEvent w = tenSecond.get("sut/eth0/rx_bps@" + T0);
    assertThat(w.window()).isEqualTo("10s");
    assertThat(w.windowEnd() - w.windowStart()).isEqualTo(10_000);
    assertThat(w.count()).isEqualTo(10);
    assertThat(w.mean()).isEqualTo(104.5);
    assertThat(w.min()).isEqualTo(100.0);
    assertThat(w.max()).isEqualTo(109.0);
    // the next one starts a second later and holds samples 1..10
    RateEvent next = tenSecond.get("sut/eth0/rx_bps@" + (T0 + 1000));
    assertThat(next.count()).isEqualTo(10);
    assertThat(next.mean()).isEqualTo(105.5);
    // a window that began before the first sample holds only what it saw
    assertThat(tenSecond.get("sut/eth0/rx_bps@" + (T0 - 9000)).count()).isEqualTo(1);
  }

  @Test
  void aLiveSeriesGetsOneTenSecondUpdatePerSecondAndAStoppedSeriesItsLastWindowsWhenTheyClose() {
    for (int i = 0; i < 3; i++) {
      samples.pipeInput("sut", sample("rx_bps", 10, T0 + i * 1000L + 200));
      latest();
    }
    // each second emitted the window ending with it: [T0-9s, T0+1s), [T0-8s, T0+2s), [T0-7s, T0+3s)
    assertThat(tenSecond).containsOnlyKeys("sut/eth0/rx_bps@" + (T0 - 9000), "sut/eth0/rx_bps@" + (T0 - 8000),
        "sut/eth0/rx_bps@" + (T0 - 7000));
    assertThat(tenSecond.get("sut/eth0/rx_bps@" + (T0 - 7000)).count()).isEqualTo(3);
    // the series stops; another one moves stream time 15 s on: the windows ahead of the stopped
    // series (starting T0-6s .. T0+2s) close and come out with what they hold
    samples.pipeInput("sut", sample("tx_bps", 1, T0 + 15_000));
    latest();
    assertThat(tenSecond.get("sut/eth0/rx_bps@" + (T0 + 2000)).count()).isEqualTo(1);
    assertThat(tenSecond.get("sut/eth0/rx_bps@" + (T0 - 6000)).count()).isEqualTo(3);
    assertThat(tenSecond.keySet().stream().filter(k -> k.startsWith("sut/eth0/rx_bps@"))).hasSize(12);
  }

  @Test
  void theStoreHoldsAFixedNumberOfSlotsPerLiveSeriesAndNothingOfAStoppedOne() {
    var store = driver.<String, SecondBucket>getKeyValueStore(RateProcessor.STORE);
    for (int i = 0; i < 60; i++) {
      samples.pipeInput("sut", sample("rx_bps", 10 + i, T0 + i * 1000L + 200));
      samples.pipeInput("sut", sample("tx_bps", 5, T0 + i * 1000L + 300));
      latest();
    }
    // a slot per second a bucket can live (10 s window + 2 s grace here, + 2): 14 per series, however long it runs
    assertThat(keys(store)).hasSize(2 * 14);
    // the newest second of rx_bps is in its slot, as it arrived
    assertThat(keys(store).stream().map(store::get).filter(b -> b.metric.equals("rx_bps"))
        .mapToLong(b -> b.startMs).max()).hasValue(T0 + 59_000);
    assertThat(keys(store).stream().map(store::get).filter(b -> b.startMs == T0 + 59_000 && b.metric.equals("rx_bps"))
        .findFirst().orElseThrow().allSum).isEqualTo(69.0);
    // rx_bps stops; tx_bps goes on 20 s: rx_bps's slots are deleted once its last window has gone out
    for (int i = 60; i < 80; i++) {
      samples.pipeInput("sut", sample("tx_bps", 5, T0 + i * 1000L + 300));
      latest();
    }
    assertThat(keys(store)).hasSize(14).allMatch(k -> k.startsWith("sut/eth0/tx_bps@"));
  }

  private static List<String> keys(org.apache.kafka.streams.state.KeyValueStore<String, SecondBucket> store) {
    List<String> out = new java.util.ArrayList<>();
    try (var it = store.all()) {
      it.forEachRemaining(kv -> out.add(kv.key));
    }
    return out;
  }

  private static Sample sampleOf(String host, String metric, double value, long ts) {
    return Sample.of(metric, value, "bit/s", "eth0", ts).withOrigin(host, null, Sources.SAR_DEV);
  }

  @Test
  void aHostWhoseLinesArriveBehindAnotherHostsOnThePartitionStillGetsAllItsRates() {
    // after a Kafka outage each collector sends its backlog in turn: b's 40 s arrive after a's
    for (String host : List.of("a", "b")) {
      for (int i = 0; i < 40; i++) {
        samples.pipeInput(host, sampleOf(host, "rx_bps", 100 + i, T0 + i * 1000L + 300));
      }
    }
    Map<String, RateEvent> out = latest();
    for (String host : List.of("a", "b")) {
      for (int i = 0; i < 40; i++) {
        assertThat(out.get(host + "/eth0/rx_bps@" + (T0 + i * 1000L))).as(host + " second " + i).isNotNull()
            .extracting(RateEvent::mean).isEqualTo(100.0 + i);
      }
      assertThat(tenSecond.get(host + "/eth0/rx_bps@" + (T0 + 10_000)).count()).isEqualTo(10);
      assertThat(tenSecond.get(host + "/eth0/rx_bps@" + (T0 + 10_000)).mean()).isEqualTo(114.5);
    }
  }

  @Test
  void aHostIdleForLongGetsItsLastWindowsAndItsLaterBacklogNeverReopensThem() {
    var store = driver.<String, SecondBucket>getKeyValueStore(RateProcessor.STORE);
    for (int i = 0; i < 20; i++) {
      samples.pipeInput("a", sampleOf("a", "rx_bps", 10, T0 + i * 1000L + 300));
    }
    latest();
    assertThat(tenSecond).doesNotContainKey("a/eth0/rx_bps@" + (T0 + 15_000)); // waits for seconds 20..24
    driver.advanceWallClockTime(RateProcessor.IDLE.plusSeconds(1));
    latest();
    // the host stopped: its waiting windows came out with what they hold, its buckets went, a marker stays
    assertThat(tenSecond.get("a/eth0/rx_bps@" + (T0 + 15_000)).count()).isEqualTo(5);
    assertThat(tenSecond.get("a/eth0/rx_bps@" + (T0 + 19_000)).count()).isEqualTo(1);
    assertThat(keys(store)).containsExactly("a@forgotten");
    tenSecond.clear();
    // its collector's backlog arrives later: the windows that went out stay as they were, the rest are whole
    for (int i = 20; i < 40; i++) {
      samples.pipeInput("a", sampleOf("a", "rx_bps", 30, T0 + i * 1000L + 300));
    }
    Map<String, RateEvent> out = latest();
    assertThat(tenSecond.keySet()).noneMatch(k -> Long.parseLong(k.substring(k.indexOf('@') + 1)) < T0 + 20_000);
    assertThat(tenSecond.get("a/eth0/rx_bps@" + (T0 + 20_000)).count()).isEqualTo(10);
    assertThat(tenSecond.get("a/eth0/rx_bps@" + (T0 + 20_000)).mean()).isEqualTo(30.0);
    assertThat(out.get("a/eth0/rx_bps@" + (T0 + 20_000)).mean()).isEqualTo(30.0);
    // once the host's own clock closes those windows, the marker goes
    assertThat(keys(store)).doesNotContain("a@forgotten");
  }
}
