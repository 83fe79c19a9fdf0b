package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;

/** One rate series: host, interface, metric and window name ("1s", "10s"). */
public record SeriesKey(String host, String iface, String metric, String window) {

  public static SeriesKey of(RateEvent rate) {
    return new SeriesKey(rate.host(), rate.iface(), rate.metric(), rate.window());
  }
}
