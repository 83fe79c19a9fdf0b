package io.netpulse.launcher.report;

import io.netpulse.launcher.run.ResultTable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Numbers, times and escaping shared by the report formats. */
public final class ReportText {

  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private ReportText() {}

  /** As the run's result table prints them ({@link ResultTable#number}); "-" for none. */
  public static String number(Double v) {
    return v == null ? "-" : ResultTable.number(v);
  }

  /** Every digit the double has, never in exponent form: for CSV, which programs read back. */
  static String exact(Double v) {
    if (v == null) {
      return "";
    }
    if (v.isNaN() || v.isInfinite()) {
      return v.toString();
    }
    String s = BigDecimal.valueOf(v).toPlainString();
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }

  static String utc(long epochMs) {
    return epochMs <= 0 ? "-" : UTC.format(Instant.ofEpochMilli(epochMs));
  }

  static String html(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * A table cell of Markdown: '|' would end the cell, '<' and '&' start HTML that renderers pass through,
   * '`', '*', '[' and ']' start code, emphasis and links; a line break would end the row.
   */
  public static String markdown(String s) {
    if (s == null) {
      return "-";
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\', '|', '`', '*', '[', ']' -> b.append('\\').append(c);
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '\r', '\n' -> b.append(' ');
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
