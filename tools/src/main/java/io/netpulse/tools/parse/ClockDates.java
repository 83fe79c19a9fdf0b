package io.netpulse.tools.parse;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * Puts a date on a clock-only time (sar prints {@code 12:00:01}, no date): the date that puts the
 * time nearest a reference instant, so a row printed just after midnight gets the next day.
 *
 * <p>Hot path: sar rows arrive at millions per second in benchmarks, so the zone arithmetic for the
 * reference day is cached (one immutable snapshot in a volatile field, safe across threads).
 */
public final class ClockDates {

  private static final long DAY_MS = 86_400_000L;

  /** Midnights of reference day - 1, day, day + 1 in one zone; offsets uniform if {@code fixed}. */
  private record Window(ZoneId zone, LocalDate day, long[] midnightsMs, boolean fixed) {
    boolean covers(ZoneId z, long refMs) {
      return zone.equals(z) && refMs >= midnightsMs[1] && refMs < midnightsMs[2];
    }
  }

  private volatile Window cache;

  /** Epoch ms of {@code secondOfDay} on the day nearest {@code referenceMs} in {@code zone}. */
  public long nearest(int secondOfDay, long referenceMs, ZoneId zone) {
    Window w = window(zone, referenceMs);
    long best = 0;
    long bestDistance = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long t = w.fixed
          ? w.midnightsMs[i] + secondOfDay * 1000L
          : epochMs(w.day.plusDays(i - 1L), secondOfDay, zone);
      long d = Math.abs(t - referenceMs);
      if (d < bestDistance) {
        bestDistance = d;
        best = t;
      }
    }
    return best;
  }

  /** Noon of {@code date} in {@code zone}: a reference from which every clock time gets that date. */
  public static long noon(LocalDate date, ZoneId zone) {
    return epochMs(date, 12 * 3600, zone);
  }

  private Window window(ZoneId zone, long referenceMs) {
    Window w = cache;
    if (w != null && w.covers(zone, referenceMs)) {
      return w;
    }
    LocalDate day = Instant.ofEpochMilli(referenceMs).atZone(zone).toLocalDate();
    long[] m = new long[4];
    for (int i = 0; i < 4; i++) {
      m[i] = day.plusDays(i - 1L).atStartOfDay(zone).toInstant().toEpochMilli();
    }
    w = new Window(zone, day, m, noTransitionBetween(zone, m[0], m[3]));
    cache = w;
    return w;
  }

  private static boolean noTransitionBetween(ZoneId zone, long fromMs, long toMs) {
    if (zone instanceof ZoneOffset) {
      return true;
    }
    ZoneRules rules = zone.getRules();
    if (rules.isFixedOffset()) {
      return true;
    }
    ZoneOffsetTransition next = rules.nextTransition(Instant.ofEpochMilli(fromMs));
    return (next == null || next.toEpochSecond() * 1000L > toMs)
        && (toMs - fromMs) == 3 * DAY_MS;
  }

  private static long epochMs(LocalDate date, int secondOfDay, ZoneId zone) {
    return LocalDateTime.of(date, LocalTime.ofSecondOfDay(secondOfDay))
        .atZone(zone).toInstant().toEpochMilli();
  }
}
