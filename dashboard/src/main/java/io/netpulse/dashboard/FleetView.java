package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every host/interface the collectors see, with its latest per-second receive and send rates: the fleet table. Built
 * from the {@link RateStore} on demand (1-s windows only), so it costs nothing until someone looks.
 */
final class FleetView {

  /** Points in a row's sparkline: the last minute of rx bit/s. */
  static final int SPARK_POINTS = 60;
  static final String WINDOW = DashboardState.SECOND;
  /** In {@link HostRow}'s order. */
  static final List<String> METRICS = List.of("rx_pps", "tx_pps", "rx_bps", "tx_bps");

  /**
   * One host/interface.
   *
   * @param rxPps   packets/s received; null when not reported
   * @param txPps   packets/s sent
   * @param rxBps   bit/s received
   * @param txBps   bit/s sent
   * @param updated window end of its newest rate, epoch ms
   * @param spark   the last {@value #SPARK_POINTS} rx bit/s values, oldest first (only in full snapshots)
   */
  record HostRow(String host, String iface, Double rxPps, Double txPps, Double rxBps, Double txBps, long updated,
      double[] spark) {}

  private final RateStore rates;

  FleetView(RateStore rates) {
    this.rates = rates;
  }

  /** Every row, with sparklines, sorted by host then interface. */
  List<HostRow> all() {
    return rows(0, true);
  }

  /** The rows with a rate received after {@code sinceUpdate} ({@link RateStore#updates()}), without sparklines. */
  List<HostRow> changedSince(long sinceUpdate) {
    return rows(sinceUpdate, false);
  }

  private List<HostRow> rows(long sinceUpdate, boolean withSpark) {
    Set<List<String>> ids = new HashSet<>();
    rates.forEachLatest(sinceUpdate, (key, rate) -> {
      if (WINDOW.equals(key.window()) && METRICS.contains(key.metric())) {
        ids.add(Arrays.asList(key.host(), key.iface()));
      }
    });
    List<HostRow> out = new ArrayList<>(ids.size());
    for (List<String> id : ids) {
      out.add(row(id.get(0), id.get(1), withSpark));
    }
    out.sort(Comparator.comparing(HostRow::host).thenComparing(HostRow::iface,
        Comparator.nullsFirst(Comparator.naturalOrder())));
    return out;
  }

  /** A changed row is sent whole, every metric's latest value with it. */
  private HostRow row(String host, String iface, boolean withSpark) {
    Double[] values = new Double[METRICS.size()];
    long updated = 0;
    for (int i = 0; i < values.length; i++) {
      RateEvent r = rates.latestOf(new SeriesKey(host, iface, METRICS.get(i), WINDOW));
      if (r != null) {
        values[i] = r.mean();
        updated = Math.max(updated, r.windowEnd());
      }
    }
    return new HostRow(host, iface, values[0], values[1], values[2], values[3], updated,
        withSpark ? spark(host, iface) : null);
  }

  private double[] spark(String host, String iface) {
    return rates.recent(new SeriesKey(host, iface, "rx_bps", WINDOW), SPARK_POINTS).stream()
        .mapToDouble(RateStore.Point::mean).toArray();
  }

}
