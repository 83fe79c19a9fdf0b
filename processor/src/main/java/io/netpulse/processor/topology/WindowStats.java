package io.netpulse.processor.topology;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;

/** Running mean/min/max/count of one series in one window; immutable, one copy per update. */
public record WindowStats(
    String host, String iface, String metric, String unit, double sum, double min, double max, long count) {

  public static WindowStats empty() {
    return new WindowStats(null, null, null, null, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0);
  }

  public WindowStats add(Sample s) {
    return new WindowStats(s.host(), s.iface(), s.metric(), s.unit(), sum + s.value(),
        Math.min(min, s.value()), Math.max(max, s.value()), count + 1);
  }

  public RateEvent toRate(String window, long start, long end) {
    return new RateEvent(RateEvent.SCHEMA, host, iface, metric, unit, window, start, end,
        count == 0 ? 0 : sum / count, min, max, count);
  }
}
