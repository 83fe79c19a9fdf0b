package io.netpulse.launcher.run;

import java.util.Locale;

/** Numbers for people: SI prefixes on per-second units (9.41 Gbit/s, 1.52 Mpackets/s), plain otherwise. */
final class Figures {

  private Figures() {}

  static String format(double value, String unit) {
    if (unit != null && unit.endsWith("/s") && Math.abs(value) >= 1000) {
      String[] prefixes = {"k", "M", "G", "T"};
      double v = value;
      int i = -1;
      while (Math.abs(v) >= 1000 && i < prefixes.length - 1) {
        v /= 1000;
        i++;
      }
      return String.format(Locale.ROOT, "%.3g %s%s", v, prefixes[i], unit);
    }
    return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%.0f %s" : "%.3g %s", value, unit == null ? "" : unit)
        .strip();
  }
}
