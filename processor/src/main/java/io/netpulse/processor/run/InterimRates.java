package io.netpulse.processor.run;

import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Interim figures a tool prints while it runs (netperf {@code -D 1}: "Interim result: R Trans/s over D seconds
 * ending at EPOCH"), one series per instance. Each line is the instance's rate over the time since its previous
 * line, so an instance's lines tile its time with pieces of constant rate; the instances' intervals neither last
 * exactly a second (0.6–1.4 s seen) nor line up, so per-second sums are made by integrating each piece over
 * each second, not by adding the lines that fall in a second.
 */
final class InterimRates {

  /** An interval (epoch ms) over which one instance ran at {@code rate} (units per second). */
  record Piece(long start, long end, double rate) {

    /** Units done inside [from, to): rate × overlap in seconds. */
    double amountIn(long from, long to) {
      long overlap = Math.min(end, to) - Math.max(start, from);
      return overlap > 0 ? rate * overlap / 1000.0 : 0;
    }
  }

  /** Assumed length of an instance's first interval: netperf's demo interval (its line says, we don't keep it). */
  static final long FIRST_INTERVAL_MS = 1_000;

  private InterimRates() {}

  /** Instance key of a streamed interim sample: the same instance number may run on two client hosts. */
  static String instanceOf(Sample s) {
    return s.host() + "#" + s.instance();
  }

  /** Per instance, its pieces in time order (a sample repeated at the same time counts once). */
  static Map<String, List<Piece>> pieces(List<Sample> samples) {
    Map<String, List<Sample>> byInstance = new LinkedHashMap<>();
    for (Sample s : samples) {
      byInstance.computeIfAbsent(instanceOf(s), k -> new ArrayList<>()).add(s);
    }
    Map<String, List<Piece>> out = new LinkedHashMap<>();
    for (var e : byInstance.entrySet()) {
      List<Sample> lines = new ArrayList<>(e.getValue());
      lines.sort(Comparator.comparingLong(Sample::ts));
      List<Piece> pieces = new ArrayList<>();
      long previous = Long.MIN_VALUE;
      for (Sample s : lines) {
        if (s.ts() == previous) {
          continue;
        }
        long start = previous == Long.MIN_VALUE ? s.ts() - FIRST_INTERVAL_MS : previous;
        pieces.add(new Piece(start, s.ts(), s.value()));
        previous = s.ts();
      }
      out.put(e.getKey(), pieces);
    }
    return out;
  }

  /**
   * The sum over instances of each instance's mean rate over [from, to), each instance judged over the part of
   * the window its lines cover (its last line may end a little before the window when its client was stopped
   * at the window's end). Equals the mean of the per-second sums when every instance covers the window.
   *
   * @param byInstance each instance's pieces ({@link #pieces})
   * @return the sum and the number of instances that covered some of the window; empty when none did
   */
  static Sum windowSum(Map<String, List<Piece>> byInstance, long from, long to) {
    double total = 0;
    int instances = 0;
    for (List<Piece> pieces : byInstance.values()) {
      if (pieces.isEmpty()) {
        continue;
      }
      long start = Math.max(from, pieces.get(0).start());
      long end = Math.min(to, pieces.get(pieces.size() - 1).end());
      if (end - start < 100) { // a sliver is no rate; 100 ms of a 1-s interval at least
        continue;
      }
      double amount = 0;
      for (Piece p : pieces) {
        amount += p.amountIn(start, end);
      }
      total += amount * 1000.0 / (end - start);
      instances++;
    }
    return new Sum(instances == 0 ? OptionalDouble.empty() : OptionalDouble.of(total), instances);
  }

  record Sum(OptionalDouble value, int instances) {}

  /**
   * The per-second sums over instances of the whole (epoch) seconds in [from, to) that every instance's lines cover,
   * oldest first: the series the precision stop judged ({@link InterimSeconds} sums the same pieces the same way),
   * for the precision of the value made of them. {@code byInstance}: as {@link #windowSum} takes them.
   */
  static double[] secondSums(Map<String, List<Piece>> byInstance, long from, long to) {
    List<List<Piece>> instances = byInstance.values().stream().filter(p -> !p.isEmpty()).toList();
    List<Double> sums = new ArrayList<>();
    for (long second = Math.floorDiv(from + 999, 1_000) * 1_000; second + 1_000 <= to; second += 1_000) {
      double sum = 0;
      boolean covered = !instances.isEmpty();
      for (List<Piece> pieces : instances) {
        if (pieces.get(0).start() > second || pieces.get(pieces.size() - 1).end() < second + 1_000) {
          covered = false;
          break;
        }
        for (Piece p : pieces) {
          sum += p.amountIn(second, second + 1_000);
        }
      }
      if (covered) {
        sums.add(sum);
      }
    }
    return sums.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
