package io.netpulse.tools.proc;

/**
 * The rule shared by every counter sampler read from {@code /proc} ({@code /proc/net/dev}, {@code /proc/stat}), whether
 * parsed as a whole output or streamed line by line.
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

  /** Whether a reading at {@code nowMs} came too soon after the one at {@code beforeMs} to give a rate. */
  public static boolean tooSoonAfter(long beforeMs, long nowMs) {
    return nowMs > beforeMs && nowMs - beforeMs < MIN_INTERVAL_MS;
  }
}
