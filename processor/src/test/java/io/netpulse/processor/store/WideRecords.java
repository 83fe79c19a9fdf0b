package io.netpulse.processor.store;

import io.netpulse.common.Units;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Records of {@code metrics} and {@code windows} as the processor writes them, for the store's tests. */
public final class WideRecords {

  private WideRecords() {}

  /** A {@code net} row: one interface's second of sar -n DEV, as the parse step groups it. */
  public static WideSample net(String host, String iface, String run, long ts, double rxPps, double rxBps) {
    return WideSample.group(List.of(
        Sample.of("rx_pps", rxPps, Units.PACKETS_PER_S, iface, ts).withOrigin(host, run, Sources.SAR_DEV),
        Sample.of("rx_bps", rxBps, Units.BITS_PER_S, iface, ts).withOrigin(host, run, Sources.SAR_DEV)),
        Sources::measurementOf).get(0);
  }

  /**
   * A 10-s window of {@code name} (net_10s, netstat_10s, ...) with one field's mean, min and max and the rows it
   * holds, as the window step writes it; {@code tags} hold host and the scope (interface, run, source).
   */
  public static WideSample window(String name, Map<String, String> tags, String field, String unit, double mean, double min,
      double max, int count, long start) {
    Map<String, Double> fields = new LinkedHashMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    fields.put(field + "_mean", mean);
    fields.put(field + "_min", min);
    fields.put(field + "_max", max);
    fields.put("count", (double) count);
    units.put(field + "_mean", unit);
    units.put(field + "_min", unit);
    units.put(field + "_max", unit);
    units.put("count", Units.COUNT);
    return new WideSample(WideSample.SCHEMA, name, new TreeMap<>(tags), fields, units, start);
  }
}
