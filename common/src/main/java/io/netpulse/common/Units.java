package io.netpulse.common;

/** Unit names carried in every Sample and rate, and exact conversions. */
public final class Units {

  public static final String PACKETS_PER_S = "packets/s";
  public static final String BITS_PER_S = "bit/s";
  public static final String CONNECTIONS = "connections";
  public static final String TRANSACTIONS_PER_S = "transactions/s";
  public static final String MICROSECONDS = "us";
  public static final String MILLISECONDS = "ms";
  public static final String SECONDS = "s";
  public static final String PERCENT = "%";
  public static final String COUNT = "count";
  public static final String MESSAGES_PER_S = "messages/s";

  /** sysstat's kB is 1024 bytes, so kB/s × 1024 × 8 = bit/s. */
  public static final double SYSSTAT_KB_TO_BITS = 8192.0;

  private Units() {}

  public static String formatBits(double bitsPerSecond) {
    return scaled(bitsPerSecond, "bit/s");
  }

  public static String formatCount(double perSecond, String unit) {
    return scaled(perSecond, unit);
  }

  /** SI scaling (10^3 steps), as network engineers read Gbit/s. */
  private static String scaled(double v, String unit) {
    double a = Math.abs(v);
    if (a >= 1e9) {
      return String.format(java.util.Locale.ROOT, "%.3f G%s", v / 1e9, unit);
    }
    if (a >= 1e6) {
      return String.format(java.util.Locale.ROOT, "%.3f M%s", v / 1e6, unit);
    }
    if (a >= 1e3) {
      return String.format(java.util.Locale.ROOT, "%.3f k%s", v / 1e3, unit);
    }
    return String.format(java.util.Locale.ROOT, "%.2f %s", v, unit);
  }
}
