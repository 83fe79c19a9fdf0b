package io.netpulse.processor.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.Units;
import io.netpulse.common.event.WideSample;
import io.netpulse.processor.TestDrivers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WindowTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final long T0 = 1_796_014_830_000L; // a window's start
  private static final Duration GRACE = Duration.ofSeconds(2);

  private TopologyTestDriver driver;
  private TestInputTopic<String, WideSample> rows;
  private TestOutputTopic<String, WideSample> windows;

  @BeforeEach
  void setUp() {
    driver = TestDrivers.driver(new WindowTopology(TOPICS, GRACE).build(), "window-test");
    rows = TestDrivers.jsonInput(driver, TOPICS.metrics(), WideSample.class);
    windows = TestDrivers.jsonOutput(driver, TOPICS.windows(), WideSample.class);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  static WideSample net(String host, String iface, long time, double rxBps, double rxPps) {
    Map<String, Double> fields = new LinkedHashMap<>();
    fields.put("rx_bps", rxBps);
    fields.put("rx_pps", rxPps);
    return new WideSample(WideSample.SCHEMA, "net", Map.of("host", host, "interface", iface, "source", "sar-dev"),
        fields, Map.of("rx_bps", Units.BITS_PER_S, "rx_pps", Units.PACKETS_PER_S), time);
  }

  private static WideSample netstat(String host, long time, double established) {
    return new WideSample(WideSample.SCHEMA, "netstat", Map.of("host", host, "source", "ss-summary"),
        Map.of("tcp_estab", established), Map.of("tcp_estab", Units.CONNECTIONS), time);
  }

  private void send(WideSample row) {
    rows.pipeInput(row.tags().get("host"), row);
  }

  @Test
  void eachScopesWindowGoesOutOnceWhenTheHostsTimePassesItsEndAndGraceWithMeanMinMaxAndCount() {
    for (int s = 0; s < 12; s++) {
      send(net("sut", "eth0", T0 + s * 1000L, 1000 + s, 10 + s));
      send(net("sut", "eth1", T0 + s * 1000L, 5, 5));
      send(netstat("sut", T0 + s * 1000L + 300, 100 + 2 * s));
    }
    assertThat(windows.isEmpty()).as("window [0,10) s is open until the host's time reaches 12 s").isTrue();
    send(net("sut", "eth0", T0 + 14_000, 1, 1)); // 14 s ≥ 10 s + 2 s grace
    List<WideSample> out = windows.readValuesToList();
    assertThat(out).extracting(WideSample::name).containsExactly("net_10s", "net_10s", "netstat_10s");
    WideSample eth0 = out.get(0);
    assertThat(eth0.tags()).containsEntry("host", "sut").containsEntry("interface", "eth0")
        .containsEntry("source", "sar-dev");
    assertThat(eth0.time()).isEqualTo(T0);
    assertThat(eth0.fields()).containsEntry("rx_bps_mean", 1004.5).containsEntry("rx_bps_min", 1000.0)
        .containsEntry("rx_bps_max", 1009.0).containsEntry("rx_pps_mean", 14.5).containsEntry("count", 10.0);
    assertThat(eth0.units()).containsEntry("rx_bps_mean", Units.BITS_PER_S).containsEntry("rx_pps_max",
        Units.PACKETS_PER_S).containsEntry("count", Units.COUNT);
    assertThat(out.get(1).tags()).containsEntry("interface", "eth1");
    assertThat(out.get(2).fields()).containsEntry("tcp_estab_mean", 109.0).containsEntry("tcp_estab_max", 118.0)
        .containsEntry("count", 10.0);
    send(net("sut", "eth0", T0 + 15_000, 1, 1));
    assertThat(windows.isEmpty()).as("sent once").isTrue();
  }

  @Test
  void aLateRowWithinTheGraceCountsAndOneAfterTheCloseIsDropped() {
    for (int s = 0; s < 11; s++) {
      send(net("sut", "eth0", T0 + s * 1000L, 100, 1));
    }
    send(net("sut", "eth0", T0 + 9_500, 400, 1)); // late, the window still open (host time 10 s < 12 s)
    send(net("sut", "eth0", T0 + 12_000, 100, 1)); // closes [0,10)
    send(net("sut", "eth0", T0 + 3_000, 9_999, 1)); // for a closed window: dropped
    send(net("sut", "eth0", T0 + 22_000, 100, 1)); // closes [10,20)
    List<WideSample> out = windows.readValuesToList();
    assertThat(out).hasSize(2);
    assertThat(out.get(0).fields()).containsEntry("count", 11.0).containsEntry("rx_bps_max", 400.0)
        .containsEntry("rx_bps_mean", (100.0 * 10 + 400) / 11);
    assertThat(out.get(1).time()).isEqualTo(T0 + 10_000);
    assertThat(out.get(1).fields()).containsEntry("count", 2.0).containsEntry("rx_bps_max", 100.0);
  }

  @Test
  void aHostBehindAnotherKeepsItsWindowsOpenByItsOwnTime() {
    send(net("ahead", "eth0", T0 + 60_000, 1, 1));
    for (int s = 0; s < 10; s++) {
      send(net("behind", "eth0", T0 + s * 1000L, 7, 1)); // a backlog: 60 s behind the other host
    }
    assertThat(windows.isEmpty()).isTrue();
    send(net("behind", "eth0", T0 + 12_000, 7, 1));
    assertThat(windows.readValuesToList()).singleElement()
        .satisfies(w -> assertThat(w.fields()).containsEntry("count", 10.0).containsEntry("rx_bps_mean", 7.0));
  }

  @Test
  void anIdleHostsWindowsGoOutAsTheyAreAndItsLaterRowsNeverReopenThem() {
    for (int s = 0; s < 4; s++) {
      send(net("sut", "eth0", T0 + s * 1000L, 10, 1));
    }
    driver.advanceWallClockTime(TenSecondWindowProcessor.IDLE.minusSeconds(2));
    assertThat(windows.isEmpty()).isTrue();
    driver.advanceWallClockTime(Duration.ofSeconds(3));
    assertThat(windows.readValuesToList()).singleElement()
        .satisfies(w -> assertThat(w.fields()).containsEntry("count", 4.0));
    send(net("sut", "eth0", T0 + 5_000, 99, 1)); // a backlog arriving after: its window went out
    send(net("sut", "eth0", T0 + 10_000, 20, 1)); // the next window is new
    send(net("sut", "eth0", T0 + 23_000, 20, 1));
    assertThat(windows.readValuesToList()).singleElement()
        .satisfies(w -> assertThat(w.time()).isEqualTo(T0 + 10_000));
  }

  @Test
  void summaryRowsAreNotSecondsAndAreLeftOut() {
    WideSample summary = new WideSample(WideSample.SCHEMA, "net",
        new TreeMap<>(Map.of("host", "sut", "interface", "eth0", "summary", "true")), Map.of("rx_bps", 5e9),
        Map.of("rx_bps", Units.BITS_PER_S), T0 + 1_000);
    send(net("sut", "eth0", T0, 10, 1));
    send(summary);
    send(net("sut", "eth0", T0 + 12_000, 10, 1));
    assertThat(windows.readValuesToList()).singleElement()
        .satisfies(w -> assertThat(w.fields()).containsEntry("count", 1.0).containsEntry("rx_bps_max", 10.0));
  }
}
