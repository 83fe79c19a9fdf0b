package io.netpulse.launcher.remote;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The start stamps of a batch's instances (host uptime when each reached its command) as they arrive: how far apart
 * the instances started, and when the last stamp came. Not thread-safe: its batch guards it.
 */
final class StartStamps {

  /** Host uptime (s) of each instance's start, NaN until seen (or when the host has no /proc/uptime). */
  private final double[] uptime;
  /** Whose stamp has arrived (a host without /proc/uptime sends empty ones). */
  private final boolean[] seen;
  /** Local time the last stamp arrived; 0 before any. */
  private long lastSeenMillis;

  StartStamps(int instances) {
    uptime = new double[instances];
    seen = new boolean[instances];
    Arrays.fill(uptime, Double.NaN);
  }

  /** Instance {@code instance}'s stamp, as sent, arrived at {@code nowMillis} (local time). */
  void arrived(int instance, String stamp, long nowMillis) {
    uptime[instance] = parseOrNaN(stamp);
    seen[instance] = true;
    lastSeenMillis = nowMillis;
  }

  boolean seen(int instance) {
    return seen[instance];
  }

  long lastSeenMillis() {
    return lastSeenMillis;
  }

  /** How far apart the instances started, once every stamp has come; empty before, or without uptimes. */
  OptionalLong spanMillis() {
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (double u : uptime) {
      if (Double.isNaN(u)) {
        return OptionalLong.empty();
      }
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    return OptionalLong.of(Math.round((max - min) * 1000));
  }

  private static double parseOrNaN(String s) {
    try {
      return Double.parseDouble(s.strip());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
