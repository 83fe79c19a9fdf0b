package io.netpulse.processor.run;

import java.util.ArrayList;
import java.util.List;

/**
 * The per-second steady-state test on one series: the points of the last window, and whether they
 * have settled. Mutable on purpose: it lives only inside a state store.
 */
public final class SteadyDetector {

  /** Sample times (epoch ms) and values of the window, oldest first. */
  public List<Long> times = new ArrayList<>();
  public List<Double> values = new ArrayList<>();
  /** Whether the last judgement was "settled": only the change to settled is reported. */
  public boolean settled;
  public long lastSeen;
  /** The first value seen: a rising metric counts as settled only once it has risen from there. */
  public Double baseline;
  /** End (epoch ms) of the last window reported settled; 0 before. */
  public long reportedTs;

  /** The judgement of a window: settled or not, with the spread (or rise) and mean it saw. */
  public record Verdict(boolean settled, double spread, double mean, long windowMs, long ts) {}

  /**
   * Adds a point and judges the window ending at the newest point.
   *
   * @return the verdict when the series has just settled, else null
   */
  public Verdict add(long ts, double value, boolean rising, SteadyConfig config) {
    return add(ts, value, rising, config, false);
  }

  /**
   * As {@link #add(long, double, boolean, SteadyConfig)}; with {@code renew}, a series that stays settled is
   * reported again once a whole new window has passed since the last report (for sums over tool instances: the
   * launcher can use only a window in which every client was already running, which the first may not be).
   */
  public Verdict add(long ts, double value, boolean rising, SteadyConfig config, boolean renew) {
    int at = times.size();
    while (at > 0 && times.get(at - 1) > ts) { // out of order: keep time order
      at--;
    }
    times.add(at, ts);
    values.add(at, value);
    if (baseline == null) {
      baseline = value;
    }
    lastSeen = Math.max(lastSeen, ts);
    long newest = times.get(times.size() - 1);
    long windowMs = config.window().toMillis();
    while (!times.isEmpty() && times.get(0) <= newest - windowMs) {
      times.remove(0);
      values.remove(0);
    }
    Verdict verdict = judge(rising, config, newest);
    boolean was = settled;
    settled = verdict.settled();
    boolean report = settled && (!was || renew && verdict.ts() - windowMs >= reportedTs);
    if (report) {
      reportedTs = verdict.ts();
    }
    return report ? verdict : null;
  }

  private Verdict judge(boolean rising, SteadyConfig config, long newest) {
    long windowMs = config.window().toMillis();
    // The window must be covered: a per-second sampler gives points a window minus a second apart.
    boolean covered = newest - times.get(0) >= windowMs - 1_000 && times.size() >= 2;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double sum = 0;
    for (double v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    double mean = sum / values.size();
    double spread;
    boolean ok;
    if (rising) {
      double first = values.get(0);
      spread = first > 0 ? (max - first) / first : Double.POSITIVE_INFINITY;
      // "reaches its maximum and stays unchanged": flat before the clients connect is not a maximum
      boolean rose = min > baseline * (1 + config.maxRise());
      ok = spread <= config.maxRise() && rose;
    } else {
      spread = mean > 0 ? (max - min) / mean : Double.POSITIVE_INFINITY; // an idle series has not settled
      ok = spread <= config.maxSpread();
    }
    return new Verdict(covered && ok, spread, mean, windowMs, newest);
  }
}
