package io.netpulse.launcher.plan;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Plan durations: a number and a unit, {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}, {@code 1h}. */
public final class Durations {

  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

  private Durations() {}

  /** The duration, or null when {@code text} is not of that form (a unit is required: a bare 10 is ambiguous). */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      return null;
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    long millisPerUnit = switch (m.group(2)) {
      case "ms" -> 1;
      case "s" -> 1_000;
      case "m" -> 60_000;
      default -> 3_600_000;
    };
    try {
      return Duration.ofMillis(amount.multiply(BigDecimal.valueOf(millisPerUnit)).longValueExact());
    } catch (ArithmeticException e) { // fractions of a millisecond, or too long
      return null;
    }
  }

  /** Shortest plan form: {@code 30s}, {@code 2m}, {@code 500ms}, {@code 1500ms}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }

  /** Whole seconds for tools that take seconds (netperf -l, iperf3 -t …), rounded up so a test never runs short. */
  public static long ceilSeconds(Duration d) {
    return Math.max(1, (d.toMillis() + 999) / 1000);
  }
}
