package io.netpulse.launcher.services;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Rates as some reader sees them (the topic's latest per window, the store's rows) against the reference, over the
 * windows the reference knows completely: which are missing, which are there with other figures, which should not
 * exist at all.
 */
final class RateComparison {

  /** How a window differs. */
  enum Kind { MISSING, WRONG, EXTRA }

  record Difference(Kind kind, RateKey key, RateValue expected, RateValue actual) {
    @Override
    public String toString() {
      return switch (kind) {
        case MISSING -> key + " missing (expected " + expected + ")";
        case EXTRA -> key + " should not exist (got " + actual + ")";
        case WRONG -> key + " expected " + expected + ", got " + actual;
      };
    }
  }

  private final List<Difference> differences;
  private final int compared;

  private RateComparison(List<Difference> differences, int compared) {
    this.differences = differences;
    this.compared = compared;
  }

  /**
   * @param inScope the windows to judge: those whose figures the reference knows completely
   */
  static RateComparison of(Map<RateKey, RateValue> expected, Map<RateKey, RateValue> actual,
      Predicate<RateKey> inScope) {
    List<Difference> out = new ArrayList<>();
    int compared = 0;
    for (Map.Entry<RateKey, RateValue> e : expected.entrySet()) {
      if (!inScope.test(e.getKey())) {
        continue;
      }
      compared++;
      RateValue got = actual.get(e.getKey());
      if (got == null) {
        out.add(new Difference(Kind.MISSING, e.getKey(), e.getValue(), null));
      } else if (!got.sameAs(e.getValue())) {
        out.add(new Difference(Kind.WRONG, e.getKey(), e.getValue(), got));
      }
    }
    for (Map.Entry<RateKey, RateValue> e : actual.entrySet()) {
      if (inScope.test(e.getKey()) && !expected.containsKey(e.getKey())) {
        out.add(new Difference(Kind.EXTRA, e.getKey(), null, e.getValue()));
      }
    }
    out.sort(Comparator.comparingLong((Difference d) -> d.key().startMs()).thenComparing(d -> d.key().toString()));
    return new RateComparison(List.copyOf(out), compared);
  }

  /** Windows of the reference that were judged. */
  int compared() {
    return compared;
  }

  List<Difference> all() {
    return differences;
  }

  /** Differences other than missing 1-s windows of {@code seconds} (those are judged apart, as "missing seconds"). */
  List<Difference> valueDifferences(Set<RateKey> seconds) {
    return differences.stream().filter(d -> !(d.kind() == Kind.MISSING && seconds.contains(d.key()))).toList();
  }

  /** The missing 1-s windows among {@code seconds}. */
  List<Difference> missing(Set<RateKey> seconds) {
    return differences.stream().filter(d -> d.kind() == Kind.MISSING && seconds.contains(d.key())).toList();
  }

  /**
   * A few lines for a failure message: how many of each kind and window, the seconds they fall in, and the first
   * {@code max} differences.
   */
  static String describe(List<Difference> list, int compared, int max) {
    return describe(list, compared, max, k -> "");
  }

  /** As {@link #describe(List, int, int)}, each shown difference followed by {@code detail} of its window. */
  static String describe(List<Difference> list, int compared, int max,
      java.util.function.Function<RateKey, String> detail) {
    if (list.isEmpty()) {
      return "none of " + compared + " windows";
    }
    Map<String, Long> counts = list.stream().collect(Collectors.groupingBy(
        d -> d.kind() + " " + d.key().window(), TreeMap::new, Collectors.counting()));
    List<String> starts = list.stream().map(d -> clock(d.key().startMs())).distinct().sorted().toList();
    String seconds = starts.size() <= 40 ? String.join(" ", starts)
        : String.join(" ", starts.subList(0, 40)) + " … (" + starts.size() + " distinct)";
    String first = list.stream().limit(max).map(d -> "    " + d + detail.apply(d.key())).collect(Collectors.joining("\n"));
    return list.size() + " of " + compared + " windows " + counts + "; window starts: " + seconds
        + "\n  first " + Math.min(max, list.size()) + ":\n" + first;
  }

  /** A time as a UTC clock time, for messages. */
  static String clock(long ms) {
    return RateKey.CLOCK.format(java.time.Instant.ofEpochMilli(ms));
  }
}
