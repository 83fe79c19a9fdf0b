package io.netpulse.launcher.plan;

import io.netpulse.holder.DurationText;
import java.time.Duration;

/** Plan durations: a number and a unit, {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code 2m}, {@code 1h}. */
public final class Durations {

  private Durations() {}

  /**
   * The duration, or null when {@code text} is not of that form (a unit is required: a bare 10 is ambiguous). The
   * connection holder reads its options with the same parser, since plans' durations reach it as they are.
   */
  public static Duration parse(String text) {
    return DurationText.parse(text);
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
