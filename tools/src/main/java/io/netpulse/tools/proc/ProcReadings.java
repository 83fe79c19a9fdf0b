package io.netpulse.tools.proc;

import io.netpulse.tools.parse.ParseError;

/**
 * The row and the rule shared by every counter sampler read from {@code /proc} ({@code /proc/net/dev},
 * {@code /proc/stat}), whether parsed as a whole output or streamed line by line.
 */
public final class ProcReadings {

  /**
   * A row is a second's rate: a reading less than this after the one before gives none, and the one before stays
   * the baseline, so that the next row covers 1–1.5 s. The samplers read at their start and then on each wall-clock
   * second, so their first two readings can be milliseconds apart, and a rate over 5 ms stamped as a second's is a
   * spike.
   */
  public static final long MIN_INTERVAL_MS = 500;

  private ProcReadings() {
  }

  /**
   * A line of such a sampler read as one scope's row (an interface, a CPU): its counters, or the error when it looks
   * like a row but cannot be read; all null ({@link #none}) for a line that is no row (headers, other lines).
   *
   * @param <C> the row's cumulative counters
   */
  public record Row<C>(String scope, C counters, ParseError error) {
    private static final Row<?> NONE = new Row<>(null, null, null);

    /** The row of a line that is no row. */
    @SuppressWarnings("unchecked")
    public static <C> Row<C> none() {
      return (Row<C>) NONE;
    }
  }

  /** Whether a reading at {@code nowMs} came too soon after the one at {@code beforeMs} to give a rate. */
  public static boolean tooSoonAfter(long beforeMs, long nowMs) {
    return nowMs > beforeMs && nowMs - beforeMs < MIN_INTERVAL_MS;
  }
}
