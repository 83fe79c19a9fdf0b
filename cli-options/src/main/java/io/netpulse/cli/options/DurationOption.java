package io.netpulse.cli.options;

import io.netpulse.launcher.plan.Durations;
import java.time.Duration;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Duration options take the plans' syntax ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}, parsed by
 * {@link Durations}); a bare number still means the unit the option had before, so that existing scripts and
 * variables ({@code NETPULSE_BATCH_LINGER=500}) keep their meaning. Picocli names the option and the value on error.
 */
public final class DurationOption {

  private static final Pattern BARE = Pattern.compile("\\d{1,12}");

  private DurationOption() {}

  static Duration parse(String value, Duration bareUnit) {
    String t = value == null ? "" : value.strip();
    if (BARE.matcher(t).matches()) {
      return bareUnit.multipliedBy(Long.parseLong(t));
    }
    Duration d = t.isEmpty() ? null : Durations.parse(t);
    if (d == null) {
      throw new TypeConversionException("'" + value + "' is not a duration such as 500ms, 10s, 5m or 1h (a bare "
          + "number is " + (bareUnit.equals(Duration.ofSeconds(1)) ? "seconds" : "milliseconds") + ")");
    }
    return d;
  }

  /** A bare number is seconds. */
  public static final class Seconds implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parse(value, Duration.ofSeconds(1));
    }
  }

  /** A bare number is milliseconds. */
  public static final class Millis implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return parse(value, Duration.ofMillis(1));
    }
  }
}
