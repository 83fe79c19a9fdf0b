package io.netpulse.holder;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as plans write them and as the launcher passes them to this tool: a number and a unit, {@code 500ms},
 * {@code 10s}, {@code 1.5s}, {@code 2m}, {@code 1h}. The launcher's plan reader uses this parser too, so that the two
 * cannot drift apart.
 */
public final class DurationText {

  private static final Pattern FORM = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

  private DurationText() {}

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

  /** For picocli options; a unit is required. */
  public static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d = parse(value);
      if (d == null) {
        throw new TypeConversionException("'" + value + "' is not a duration such as 70s, 2m or 500ms");
      }
      return d;
    }
  }
}
