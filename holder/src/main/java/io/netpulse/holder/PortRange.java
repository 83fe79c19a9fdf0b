package io.netpulse.holder;

import java.util.stream.IntStream;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * TCP ports {@code first}, {@code first + step}, … up to {@code last}, written {@code FIRST:LAST:STEP}
 * (c1000k's 2000:64000:2000), {@code FIRST:LAST} (step 1) or a single {@code PORT}.
 */
public record PortRange(int first, int last, int step) {

  public static final int MAX_PORT = 65_535;

  public PortRange {
    if (first < 1 || last > MAX_PORT || first > last || step < 1) {
      throw new IllegalArgumentException("ports " + first + ":" + last + ":" + step
          + " must satisfy 1 <= FIRST <= LAST <= " + MAX_PORT + " and STEP >= 1");
    }
  }

  /** Parses {@code FIRST:LAST:STEP}, {@code FIRST:LAST} or {@code PORT}; the message names the bad part. */
  public static PortRange parse(String text) {
    String[] parts = text.trim().split(":", -1);
    if (parts.length > 3) {
      throw new IllegalArgumentException("'" + text + "' is not FIRST:LAST:STEP");
    }
    int first = number(text, parts[0], "FIRST");
    int last = parts.length > 1 ? number(text, parts[1], "LAST") : first;
    int step = parts.length > 2 ? number(text, parts[2], "STEP") : 1;
    if (first < 1 || first > MAX_PORT || last < 1 || last > MAX_PORT) {
      throw new IllegalArgumentException("'" + text + "': ports must be 1.." + MAX_PORT);
    }
    if (first > last) {
      throw new IllegalArgumentException("'" + text + "': FIRST " + first + " is after LAST " + last);
    }
    if (step < 1) {
      throw new IllegalArgumentException("'" + text + "': STEP must be at least 1");
    }
    return new PortRange(first, last, step);
  }

  private static int number(String text, String part, String name) {
    try {
      return Integer.parseInt(part.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': " + name + " '" + part + "' is not a whole number");
    }
  }

  /** How many ports: {@code 2000:64000:2000} has 32. */
  public int count() {
    return (last - first) / step + 1;
  }

  /** The {@code i}-th port, 0-based. */
  public int port(int i) {
    return first + i * step;
  }

  public int[] ports() {
    return IntStream.range(0, count()).map(this::port).toArray();
  }

  @Override
  public String toString() {
    return first + ":" + last + ":" + step;
  }

  /** For picocli: a bad spec becomes "Invalid value for option '--ports': …", exit 2. */
  public static final class Converter implements ITypeConverter<PortRange> {
    @Override
    public PortRange convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
