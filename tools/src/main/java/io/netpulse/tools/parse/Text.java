package io.netpulse.tools.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/** Small text helpers the (non hot-path) parsers share: cleaning lines, numbers, rate units. */
public final class Text {

  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
  private static final int MAX_SHOWN = 60;
  /** No tool prints lines this long; regexes on megabyte garbage would only burn CPU. */
  public static final int MAX_LINE = 8192;

  private Text() {}

  /** The line without CR/trailing blanks and without ANSI colour codes (sockperf prints them). */
  public static String clean(String line) {
    if (line == null) {
      return "";
    }
    String s = line.indexOf('\u001B') >= 0 ? ANSI.matcher(line).replaceAll("") : line;
    return s.strip();
  }

  public static boolean tooLong(String line) {
    return line != null && line.length() > MAX_LINE;
  }

  public static ParseError tooLongError(int line) {
    return new ParseError(line, null, "line longer than " + MAX_LINE + " characters: not tool output");
  }

  /** A line of a tool's output, cleaned, with its 1-based number in that output. */
  public record NumberedLine(int number, String text) {}

  /**
   * The lines a whole-output parser reads: each cleaned ({@link #clean}) and numbered from 1; a line too long for any
   * tool becomes an error in {@code errors} instead, so that no pattern runs on it.
   */
  public static List<NumberedLine> readable(List<String> lines, List<ParseError> errors) {
    List<NumberedLine> out = new ArrayList<>(lines.size());
    int n = 0;
    for (String raw : lines) {
      n++;
      if (tooLong(raw)) {
        errors.add(tooLongError(n));
      } else {
        out.add(new NumberedLine(n, clean(raw)));
      }
    }
    return out;
  }

  /** A finite number, or empty. */
  public static OptionalDouble number(String s) {
    if (s == null || s.isEmpty() || s.length() > 40) {
      return OptionalDouble.empty();
    }
    try {
      double v = Double.parseDouble(s.replace(",", ""));
      return Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }

  private static final Pattern BIT_RATE_UNIT = Pattern.compile("([kKMGT]?)(?:bits/sec|bits/s|bps)");

  /**
   * Factor from a bit-rate unit ({@code Gbits/sec} of iperf, {@code Mbps} of sockperf) to bit/s,
   * or NaN for anything else (byte rates such as {@code MBps} are not bit rates).
   */
  public static double bitRateFactor(String unit) {
    java.util.regex.Matcher m = BIT_RATE_UNIT.matcher(unit);
    if (!m.matches()) {
      return Double.NaN;
    }
    return m.group(1).isEmpty() ? 1.0 : siPrefix(m.group(1).charAt(0));
  }

  /** 10^3 steps: network rates are SI (iperf's Mbits/sec is 10^6 bit/s). */
  public static double siPrefix(char prefix) {
    return switch (Character.toLowerCase(prefix)) {
      case 'k' -> 1e3;
      case 'm' -> 1e6;
      case 'g' -> 1e9;
      case 't' -> 1e12;
      default -> 1.0;
    };
  }

  /** Shortened for error messages: a huge line must not make a huge error. */
  public static String shown(String s) {
    return s.length() <= MAX_SHOWN ? s : s.substring(0, MAX_SHOWN) + "...";
  }

  /** A snapshot's time line, {@code # <epoch>}: seconds (9-10 digits, maybe a fraction) or milliseconds (12-13). */
  private static final Pattern EPOCH_LINE = Pattern.compile("#?\\s*(\\d{9,10}(?:\\.\\d+)?|\\d{12,13})");

  /** Whether a cleaned line is a snapshot's time line. */
  public static boolean isEpochLine(String line) {
    return EPOCH_LINE.matcher(line).matches();
  }

  /** The epoch ms of a time line, or null when {@code line} is not one. */
  public static Long epochMillis(String line) {
    java.util.regex.Matcher m = EPOCH_LINE.matcher(line);
    if (!m.matches()) {
      return null;
    }
    String t = m.group(1);
    // milliseconds are 12-13 digits; seconds 9-10 with a fraction ("1796126132.50" is seconds, too)
    return t.indexOf('.') < 0 && t.length() >= 12 ? Long.parseLong(t) : Math.round(Double.parseDouble(t) * 1000.0);
  }
}
