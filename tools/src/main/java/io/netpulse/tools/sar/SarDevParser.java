package io.netpulse.tools.sar;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.parse.ClockDates;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sysstat {@code sar -n DEV} rows: {@code TIME IFACE rxpck/s txpck/s rxkB/s txkB/s rxcmp/s txcmp/s
 * rxmcst/s [%ifutil]}. Each data row gives rx_pps, tx_pps, rx_bps, tx_bps for its interface;
 * {@code Average:} rows give the same with {@code summary = true}.
 *
 * <p>Rows are recognised by the fixed column order, so one line parses without state (the stream
 * topology sees lines one by one). This is the pipeline's hot path: the row is scanned char by char,
 * no regex and no split per row (see SarDevParserBench).
 */
public final class SarDevParser implements LineParser {

  public static final String FORMAT = Sources.SAR_DEV;

  static final String[] COLUMNS = {
    "rxpck/s", "txpck/s", "rxkB/s", "txkB/s", "rxcmp/s", "txcmp/s", "rxmcst/s", "%ifutil"
  };
  private static final int REQUIRED_COLUMNS = 7; // %ifutil is missing before sysstat 10
  private static final int MAX_SHOWN = 40;
  private static final long HALF_DAY_MS = 43_200_000L;

  /** Banner date: ISO (S_TIME_FORMAT=ISO), MM/DD/YYYY or MM/DD/YY (LC_ALL=C). */
  private static final Pattern BANNER_DATE =
      Pattern.compile("(?<!\\S)(?:(\\d{4})-(\\d{2})-(\\d{2})|(\\d{2})/(\\d{2})/(\\d{2}|\\d{4}))(?!\\S)");

  private final ClockDates dates = new ClockDates();

  @Override
  public String format() {
    return FORMAT;
  }

  /**
   * Parses a whole sar text. Unlike single lines, the text may carry its own date (the
   * {@code Linux ... 11/30/26} banner, used when the context has no reference time) and rows run in
   * time order, so each row's date is chosen nearest the row before it: a run across midnight works.
   */
  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    ZoneId zone = zoneOf(context);
    long clockReference = context.referenceMs() != 0
        ? context.referenceMs()
        : ClockDates.noon(LocalDate.now(zone), zone);
    long lastRowMs = context.referenceMs();
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    int n = 0;
    for (String line : lines) {
      n++;
      if (context.referenceMs() == 0 && line != null && line.startsWith("Linux")) {
        Optional<LocalDate> date = bannerDate(line);
        if (date.isPresent()) {
          clockReference = ClockDates.noon(date.get(), zone);
        }
        continue;
      }
      ParseResult r = parseRow(line, n, context, clockReference, lastRowMs);
      samples.addAll(r.samples());
      errors.addAll(r.errors());
      if (!r.samples().isEmpty() && !r.samples().get(0).summary()) {
        lastRowMs = r.samples().get(0).ts();
        // sar's clock only moves forward: the next row is in [this row - 1 s, this row + 1 day)
        clockReference = lastRowMs + HALF_DAY_MS - 1000;
      }
    }
    return new ParseResult(samples, errors);
  }

  /** The date in a {@code Linux 6.1.0 (host) \t2026-11-30 \t_x86_64_\t(2 CPU)} banner, if any. */
  static Optional<LocalDate> bannerDate(String line) {
    Matcher m = BANNER_DATE.matcher(line);
    if (!m.find()) {
      return Optional.empty();
    }
    try {
      if (m.group(1) != null) {
        return Optional.of(LocalDate.of(
            Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
      }
      int year = Integer.parseInt(m.group(6));
      return Optional.of(LocalDate.of(year < 100 ? 2000 + year : year,
          Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))));
    } catch (java.time.DateTimeException e) {
      return Optional.empty(); // 13/45/26 is no date; rows then fall back to today
    }
  }

  /**
   * A streamed line: its clock time gets the date nearest {@code context.referenceMs()} (today in
   * the zone when 0); an {@code Average:} row is stamped with the reference time itself.
   */
  @Override
  public ParseResult parseLine(String line, int lineNumber, ParseContext context) {
    long reference = context.referenceMs();
    long clockReference = reference != 0 ? reference : ClockDates.noon(LocalDate.now(zoneOf(context)), zoneOf(context));
    return parseRow(line, lineNumber, context, clockReference, reference);
  }

  private ParseResult parseRow(String line, int lineNumber, ParseContext context, long clockReference,
      long summaryTs) {
    if (line == null) {
      return ParseResult.empty();
    }
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) <= ' ') {
      end--; // CRLF and trailing blanks
    }
    int p = skipBlanks(line, 0, end);
    if (p == end) {
      return ParseResult.empty();
    }
    boolean summary = false;
    int secondOfDay = 0;
    char c = line.charAt(p);
    if (c >= '0' && c <= '9') {
      secondOfDay = clockTime(line, p, end);
      if (secondOfDay < 0) {
        return error(lineNumber, "time", "expected a clock time HH:MM:SS, got '" + token(line, p, end) + "'");
      }
      p += 8;
      int q = skipBlanks(line, p, end);
      int half = halfDay(line, q, end);
      if (half != 0) {
        int hour = secondOfDay / 3600;
        if (hour < 1 || hour > 12) {
          return error(lineNumber, "time", "12-hour clock time with hour " + hour);
        }
        secondOfDay = secondOfDay % 3600 + (hour % 12 + (half > 0 ? 12 : 0)) * 3600;
        q += 2;
      }
      p = q;
    } else if (line.startsWith("Average:", p)) {
      summary = true;
      p += 8;
    } else if (line.startsWith("Linux", p)) {
      return ParseResult.empty(); // banner
    } else {
      return error(lineNumber, null, "not a sar -n DEV line: expected a clock time or 'Average:' first, got '"
          + token(line, p, end) + "'");
    }

    p = skipBlanks(line, p, end);
    int ifaceEnd = tokenEnd(line, p, end);
    if (ifaceEnd == p) {
      return error(lineNumber, "IFACE", "missing interface name and counters");
    }
    if (ifaceEnd - p == 5 && line.startsWith("IFACE", p)) {
      return ParseResult.empty(); // header row, repeated every interval
    }
    String iface = line.substring(p, ifaceEnd);
    p = ifaceEnd;

    double rxPackets = 0;
    double txPackets = 0;
    double rxKb = 0;
    double txKb = 0;
    int column = 0;
    while (true) {
      p = skipBlanks(line, p, end);
      if (p == end) {
        break;
      }
      int e = tokenEnd(line, p, end);
      if (column == COLUMNS.length) {
        return error(lineNumber, null, "more columns than IFACE + " + COLUMNS.length
            + " (unexpected '" + token(line, p, end) + "')");
      }
      double v = number(line, p, e);
      if (Double.isNaN(v)) {
        return error(lineNumber, COLUMNS[column], "expected a number like 12.34, got '" + token(line, p, end) + "'");
      }
      switch (column) {
        case 0 -> rxPackets = v;
        case 1 -> txPackets = v;
        case 2 -> rxKb = v;
        case 3 -> txKb = v;
        default -> { } // validated, not reported
      }
      column++;
      p = e;
    }
    if (column < REQUIRED_COLUMNS) {
      return error(lineNumber, COLUMNS[column], "missing: a sar -n DEV row has IFACE and "
          + REQUIRED_COLUMNS + " or " + COLUMNS.length + " numbers, this one has " + column);
    }

    long ts = summary
        ? summaryTs // sar's Average has no time; it belongs to the end of the run
        : dates.nearest(secondOfDay, clockReference, zoneOf(context));
    String test = context.test();
    return ParseResult.of(List.of(
        sample("rx_pps", rxPackets, Units.PACKETS_PER_S, iface, ts, summary, test),
        sample("tx_pps", txPackets, Units.PACKETS_PER_S, iface, ts, summary, test),
        sample("rx_bps", rxKb * Units.SYSSTAT_KB_TO_BITS, Units.BITS_PER_S, iface, ts, summary, test),
        sample("tx_bps", txKb * Units.SYSSTAT_KB_TO_BITS, Units.BITS_PER_S, iface, ts, summary, test)));
  }

  private static Sample sample(String metric, double value, String unit, String iface, long ts,
      boolean summary, String test) {
    // the canonical constructor, not of().asSummary().withTest(): three records less per sample
    return new Sample(Sample.SCHEMA, metric, value, unit, null, iface, ts, null, null, summary, test, null);
  }

  private static ZoneId zoneOf(ParseContext context) {
    return context.zone() == null ? ZoneOffset.UTC : context.zone();
  }

  /** Seconds of day for {@code HH:MM:SS} at {@code p}, or -1. */
  private static int clockTime(String s, int p, int end) {
    if (end - p < 8 || s.charAt(p + 2) != ':' || s.charAt(p + 5) != ':'
        || (p + 8 < end && s.charAt(p + 8) > ' ')) {
      return -1;
    }
    int h = twoDigits(s, p);
    int m = twoDigits(s, p + 3);
    int sec = twoDigits(s, p + 6);
    if (h < 0 || m < 0 || sec < 0 || h > 23 || m > 59 || sec > 60) {
      return -1;
    }
    return h * 3600 + m * 60 + Math.min(sec, 59); // :60 is a leap second
  }

  private static int twoDigits(String s, int p) {
    int a = s.charAt(p) - '0';
    int b = s.charAt(p + 1) - '0';
    return (a < 0 || a > 9 || b < 0 || b > 9) ? -1 : a * 10 + b;
  }

  /** +1 for a PM token at {@code p}, -1 for AM, 0 for neither. */
  private static int halfDay(String s, int p, int end) {
    if (end - p < 2 || (p + 2 < end && s.charAt(p + 2) > ' ')) {
      return 0;
    }
    char a = s.charAt(p);
    if (s.charAt(p + 1) != 'M' && s.charAt(p + 1) != 'm') {
      return 0;
    }
    return a == 'P' || a == 'p' ? 1 : (a == 'A' || a == 'a' ? -1 : 0);
  }

  /**
   * Non-negative decimal such as {@code 1626689.00} (or with a decimal comma), NaN if not one.
   * mantissa / 10^k is exactly Double.parseDouble's result while the mantissa fits 2^53.
   */
  static double number(String s, int p, int end) {
    long mantissa = 0;
    int digits = 0;
    int fraction = -1;
    for (int i = p; i < end; i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        mantissa = mantissa * 10 + (c - '0');
        if (++digits > 15) {
          return slowNumber(s, p, end);
        }
        if (fraction >= 0) {
          fraction++;
        }
      } else if ((c == '.' || c == ',') && fraction < 0) {
        fraction = 0;
      } else {
        return Double.NaN;
      }
    }
    if (digits == 0) {
      return Double.NaN;
    }
    return fraction <= 0 ? mantissa : mantissa / POW10[fraction];
  }

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16
  };

  private static double slowNumber(String s, int p, int end) {
    try {
      double v = Double.parseDouble(s.substring(p, end).replace(',', '.'));
      return v >= 0 && !Double.isInfinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static int skipBlanks(String s, int p, int end) {
    while (p < end && s.charAt(p) <= ' ') {
      p++;
    }
    return p;
  }

  private static int tokenEnd(String s, int p, int end) {
    while (p < end && s.charAt(p) > ' ') {
      p++;
    }
    return p;
  }

  /** The token at {@code p}, shortened so that a huge line makes no huge error. */
  private static String token(String s, int p, int end) {
    int e = Math.min(tokenEnd(s, p, end), p + MAX_SHOWN);
    return s.substring(p, e);
  }

  private static ParseResult error(int line, String field, String message) {
    return ParseResult.error(new ParseError(line, field, message));
  }
}
