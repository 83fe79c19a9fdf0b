package io.netpulse.holder;

import java.util.EnumMap;
import java.util.Map;

/**
 * A client's failed connects by kind, in total and since the last success: a run of failures with no success
 * in between is how the SUT saying "no more" looks from the client, and its most common kind says how.
 */
public final class ConnectFailures {

  /**
   * What a failed connect means; the JDK gives errno only as the message text. Public for the launcher, which
   * reads c1000k's error lines with it.
   */
  public enum Kind {
    REFUSED, TIMED_OUT, NO_LOCAL_PORT, OPEN_FILES, OTHER;

    public static Kind of(String message) {
      String m = message == null ? "" : message;
      if (m.contains("Connection refused")) {
        return REFUSED;
      }
      if (m.contains("timed out")) { // ours ("connect timed out after …") or the kernel's ETIMEDOUT
        return TIMED_OUT;
      }
      if (m.contains("Cannot assign requested address")) { // EADDRNOTAVAIL: no local port left for this destination
        return NO_LOCAL_PORT;
      }
      if (m.contains("Too many open files")) { // EMFILE, and ENFILE ("… in system")
        return OPEN_FILES;
      }
      return OTHER;
    }
  }

  private final Map<Kind, Long> total = new EnumMap<>(Kind.class);
  private final Map<Kind, Long> streakByKind = new EnumMap<>(Kind.class);
  private long all;
  private long streak;
  private String last;

  void failed(Kind kind, String where) {
    all++;
    streak++;
    total.merge(kind, 1L, Long::sum);
    streakByKind.merge(kind, 1L, Long::sum);
    last = where;
  }

  void succeeded() {
    streak = 0;
    streakByKind.clear();
  }

  long all() {
    return all;
  }

  long total(Kind kind) {
    return total.getOrDefault(kind, 0L);
  }

  /** Failures since the last successful connect. */
  long streak() {
    return streak;
  }

  /** "ADDR:PORT: message" of the latest failure, or null. */
  String last() {
    return last;
  }

  /** What the current run of failures says: the kind most of them were. */
  ClimbEnd streakEnd() {
    Kind most = streakByKind.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
        .orElse(Kind.OTHER);
    return switch (most) {
      case REFUSED -> ClimbEnd.REFUSED;
      case TIMED_OUT -> ClimbEnd.SYN_TIMEOUTS;
      default -> ClimbEnd.CONNECT_ERRORS;
    };
  }
}
