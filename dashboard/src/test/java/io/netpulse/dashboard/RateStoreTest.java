package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RateEvent;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RateStoreTest {

  @Test
  void keepsLatestPerSeriesAndHistoryOfTheLastHistoryWindow() {
    RateStore store = new RateStore();
    long t0 = 1_796_000_000_000L;
    int seconds = 400; // more than HISTORY_MS
    for (int i = 1; i <= seconds; i++) {
      store.add(RateTraffic.rate("h1", "eth0", "rx_bps", t0 + i * 1000L, i * 1e6));
    }
    store.add(RateTraffic.rate("h0", "eth9", "rx_pps", t0, 42));

    List<RateStore.Point> history = store.history(new SeriesKey("h1", "eth0", "rx_bps", "1s"));
    long newestEnd = t0 + seconds * 1000L;
    assertThat(history.get(history.size() - 1).windowEnd()).isEqualTo(newestEnd);
    assertThat(history.get(0).windowEnd()).isEqualTo(newestEnd - RateStore.HISTORY_MS);
    assertThat(history).hasSize((int) (RateStore.HISTORY_MS / 1000) + 1);

    assertThat(store.latest()).extracting(RateEvent::host, RateEvent::mean)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("h0", 42.0),
            org.assertj.core.groups.Tuple.tuple("h1", seconds * 1e6));
    assertThat(store.history(new SeriesKey("nope", "eth0", "rx_bps", "1s"))).isEmpty();
  }

  @Test
  void capsEventsPerSeriesWhenWindowsAreDense() {
    RateStore store = new RateStore();
    long t0 = 1_796_000_000_000L;
    for (int i = 0; i < RateStore.HISTORY_MAX_EVENTS * 3; i++) {
      store.add(RateTraffic.rate("h1", null, "rx_bps", t0 + i, i)); // 1 ms apart: all inside the time window
    }
    List<RateStore.Point> history = store.history(new SeriesKey("h1", null, "rx_bps", "1s"));
    assertThat(history).hasSize(RateStore.HISTORY_MAX_EVENTS);
    assertThat(history.get(0).mean()).isEqualTo(RateStore.HISTORY_MAX_EVENTS * 2);
  }
}
