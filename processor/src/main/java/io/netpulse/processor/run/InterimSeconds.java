package io.netpulse.processor.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's interim figures of one metric, turned into per-second sums over its tool instances as their lines
 * arrive: the series the steady detector judges for tests whose value is a sum over instances. A second is
 * summed once every instance has a line ending after it: every instance the run started when the lifecycle says how
 * many ({@code expected}), else every instance seen. A second some instance has not covered once the newest line is
 * {@link #STALL_MS} past it is passed over, not summed without that instance's share: judged, such undercounts
 * settled a TCP_RR run at half its rate when one of two netperfs, slowed after a cap's initial burst, printed no
 * interim line for its first 5 s. Mutable on purpose: it lives only inside a state store, with plain fields for the
 * JSON serde.
 */
public final class InterimSeconds {

  /**
   * How far the newest line may run ahead of a second that some instance has not yet covered: netperf stretches
   * its demo interval when it is slowed down (4.2 s seen on a busy 2-core machine), and a second summed before
   * such a line arrives would lack that instance's share.
   */
  static final long STALL_MS = 8_000;

  /** Per instance, the end (epoch ms) of its latest line: where its next piece starts. */
  public Map<String, Long> lastEnd = new HashMap<>();
  /** Pieces not yet wholly summed: start and end (epoch ms) and rate (units/s). */
  public List<Long> starts = new ArrayList<>();
  public List<Long> ends = new ArrayList<>();
  public List<Double> rates = new ArrayList<>();
  /** Start (epoch ms) of the next second to sum; 0 before the first line. */
  public long next;
  public long newest;

  /** One summed second: its start (epoch ms) and the sum of the instances' rates over it (units/s). */
  public record Second(long start, double sum) {}

  /**
   * Adds an instance's line (its rate over the time since its previous line) and sums the seconds it completes.
   *
   * @return the seconds summed now, oldest first
   */
  public List<Second> add(String instance, long end, double rate) {
    return add(instance, end, rate, 0);
  }

  /**
   * As {@link #add(String, long, double)}, with the number of instances the run started (0: unknown).
   *
   * @return the seconds summed now with every instance in them, oldest first
   */
  public List<Second> add(String instance, long end, double rate, int expected) {
    Long previous = lastEnd.get(instance);
    if (previous != null && end <= previous) {
      return List.of(); // a repeat or out of order: its time is already accounted for
    }
    long start = previous == null ? end - InterimRates.FIRST_INTERVAL_MS : previous;
    lastEnd.put(instance, end);
    if (previous == null && next != 0) {
      next = Math.max(next, ceilSecond(start)); // the seconds before a late instance's first line lack its share
    }
    starts.add(start);
    ends.add(end);
    rates.add(rate);
    newest = Math.max(newest, end);
    if (next == 0) {
      next = ceilSecond(start); // the first whole second of the first instance
    }
    List<Second> out = new ArrayList<>();
    long covered = lastEnd.size() < expected ? 0 : lastEnd.values().stream().mapToLong(Long::longValue).min().orElse(0);
    while (next + 1_000 <= covered || next + 1_000 <= newest - STALL_MS) {
      if (next + 1_000 <= covered) {
        out.add(new Second(next, sum(next, next + 1_000)));
      }
      next += 1_000;
    }
    prune();
    return out;
  }

  private double sum(long from, long to) {
    double total = 0;
    for (int i = 0; i < starts.size(); i++) {
      total += new InterimRates.Piece(starts.get(i), ends.get(i), rates.get(i)).amountIn(from, to);
    }
    return total;
  }

  /** Pieces that end before the next second can add nothing more. */
  private void prune() {
    for (int i = starts.size() - 1; i >= 0; i--) {
      if (ends.get(i) <= next) {
        starts.remove(i);
        ends.remove(i);
        rates.remove(i);
      }
    }
  }

  private static long ceilSecond(long ms) {
    return Math.floorDiv(ms + 999, 1_000) * 1_000;
  }
}
