package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class FleetViewTest {

  @Test
  void oneRowPerHostInterfaceWithItsLatestRatesAndASparkline() {
    RateStore rates = new RateStore();
    long t0 = 1_796_000_000_000L;
    for (int s = 1; s <= 90; s++) {
      rates.add(RateTraffic.rate("h1", "eth0", "rx_bps", t0 + s * 1000L, s * 1e6));
      rates.add(RateTraffic.rate("h1", "eth0", "tx_pps", t0 + s * 1000L, s));
    }
    rates.add(RateTraffic.rate("h2", null, "rx_pps", t0, 7));
    rates.add(RateTraffic.rate("h2", null, "tcp_estab", t0, 70)); // not a fleet column
    FleetView fleet = new FleetView(rates);

    var rows = fleet.all();
    assertThat(rows).extracting(FleetView.HostRow::host).containsExactly("h1", "h2");
    FleetView.HostRow h1 = rows.get(0);
    assertThat(h1.rxBps()).isEqualTo(90e6);
    assertThat(h1.txPps()).isEqualTo(90.0);
    assertThat(h1.rxPps()).isNull();
    assertThat(h1.updated()).isEqualTo(t0 + 90_000);
    assertThat(h1.spark()).hasSize(FleetView.SPARK_POINTS);
    assertThat(h1.spark()[FleetView.SPARK_POINTS - 1]).isEqualTo(90e6);
    assertThat(h1.spark()[0]).isEqualTo(31e6);
  }

  @Test
  void changedRowsAreSentWholeAndOnlyThem() {
    RateStore rates = new RateStore();
    long t0 = 1_796_000_000_000L;
    rates.add(RateTraffic.rate("h1", "eth0", "rx_bps", t0, 1e6));
    rates.add(RateTraffic.rate("h1", "eth0", "tx_bps", t0, 2e6));
    rates.add(RateTraffic.rate("h2", "eth0", "rx_bps", t0, 3e6));
    long seen = rates.updates();
    FleetView fleet = new FleetView(rates);
    assertThat(fleet.changedSince(seen)).isEmpty();

    rates.add(RateTraffic.rate("h1", "eth0", "rx_bps", t0 + 1000, 5e6));
    var changed = fleet.changedSince(seen);
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).host()).isEqualTo("h1");
    assertThat(changed.get(0).rxBps()).isEqualTo(5e6);
    assertThat(changed.get(0).txBps()).as("the unchanged metric comes with the row").isEqualTo(2e6);
    assertThat(changed.get(0).spark()).isNull();
  }
}
