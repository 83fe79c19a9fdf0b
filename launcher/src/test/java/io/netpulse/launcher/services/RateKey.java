package io.netpulse.launcher.services;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One window of one series, as the restart acceptance keys a field of a {@code metrics} row or
 * {@code windows} window (host/iface/metric, window, windowStart) and as the store's tables key it (its unit aside, which a series never changes).
 *
 * @param iface null for a series that is not per interface (ss -s)
 * @param window {@code 1s} or {@code 10s}
 */
record RateKey(String host, String iface, String metric, String window, long startMs) {

  static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  long lengthMs() {
    return "10s".equals(window) ? 10_000 : 1_000;
  }

  long endMs() {
    return startMs + lengthMs();
  }

  String series() {
    return host + "/" + (iface == null ? "-" : iface) + "/" + metric;
  }

  @Override
  public String toString() {
    return series() + " " + window + "@" + CLOCK.format(Instant.ofEpochMilli(startMs)) + "Z";
  }
}
