package io.netpulse.launcher.run;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The seeds' manual arithmetic, written out plainly (split on whitespace, add up) and on purpose
 * independent of netpulse's parsers: the fidelity test compares netpulse against these figures.
 */
final class ByHand {

  private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern CLOCK = Pattern.compile("\\d{2}:\\d{2}:\\d{2}");
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

  private ByHand() {}

  /** One data row of {@code sar -n DEV 1} for one interface; {@code epochMs} is the row's clock time. */
  record SarRow(long epochMs, double rxPacketsPerS, double rxKilobytesPerS, double txPacketsPerS,
      double txKilobytesPerS) {}

  /**
   * The rows of {@code iface} in the output of {@code LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC sar -n DEV 1}:
   * the date from the banner, the clock from each row, a day added when the clock wraps past midnight.
   * Header rows, blank lines and {@code Average:} rows are skipped.
   */
  static List<SarRow> sarRows(String sarText, String iface) {
    LocalDate date = null;
    LocalTime previous = null;
    List<SarRow> rows = new ArrayList<>();
    for (String line : sarText.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (date == null) {
        for (String token : f) {
          if (DATE.matcher(token).matches()) {
            date = LocalDate.parse(token);
          }
        }
        continue;
      }
      // time IFACE rxpck/s txpck/s rxkB/s txkB/s rxcmp/s txcmp/s rxmcst/s %ifutil
      if (f.length < 6 || !CLOCK.matcher(f[0]).matches() || !f[1].equals(iface)) {
        continue;
      }
      LocalTime clock = LocalTime.parse(f[0]);
      if (previous != null && clock.isBefore(previous)) {
        date = date.plusDays(1);
      }
      previous = clock;
      long epochMs = date.atTime(clock).toInstant(ZoneOffset.UTC).toEpochMilli();
      rows.add(new SarRow(epochMs, Double.parseDouble(f[2]), Double.parseDouble(f[4]), Double.parseDouble(f[3]),
          Double.parseDouble(f[5])));
    }
    if (date == null) {
      throw new IllegalArgumentException("no sar banner with an ISO date in: " + sarText);
    }
    return rows;
  }

  /** The rows whose clock time is in [startMs, endMs): the measuring window as the run's lifecycle gives it. */
  static List<SarRow> inWindow(List<SarRow> rows, long startMs, long endMs) {
    // The seed starts sar after the traffic and stops it before, so every row it averages is a whole second of
    // traffic. A row stamped W covers (W - 1 s + phase, W + phase]: it is wholly inside the window, whatever the
    // phase, when W - 1 s >= start and W + 1 s <= end (the rows netpulse counts too).
    return inWindow(rows, startMs, endMs, 1);
  }

  /** The same for {@code sar -n DEV S} (seed 002's S = 2): a row stamped W covers (W - S + phase, W + phase]. */
  static List<SarRow> inWindow(List<SarRow> rows, long startMs, long endMs, int intervalSeconds) {
    return rows.stream()
        .filter(r -> r.epochMs() - 1000L * intervalSeconds >= startMs && r.epochMs() + 1000 <= endMs).toList();
  }

  /**
   * Seed 000's {@code awk '{print $6}' | awk '{sum+=$1}'} over netperf's TCP_CRR result lines: the
   * line of six numbers (socket send, recv, request, response, elapsed s, Trans. Rate), summed over
   * the given outputs, one per netperf instance. An output without such a line is an error.
   */
  static double transRateSum(List<String> netperfOutputs) {
    double sum = 0;
    for (String out : netperfOutputs) {
      Double rate = null;
      for (String line : out.split("\n")) {
        String[] f = line.trim().split("\\s+");
        if (f.length == 6 && List.of(f).stream().allMatch(x -> NUMBER.matcher(x).matches())) {
          rate = Double.parseDouble(f[5]);
        }
      }
      if (rate == null) {
        throw new IllegalArgumentException("no TCP_CRR result line (6 numbers) in netperf output:\n" + out);
      }
      sum += rate;
    }
    return sum;
  }

  /** |actual − expected| ÷ expected. */
  static double relativeDifference(double actual, double expected) {
    return Math.abs(actual - expected) / expected;
  }
}
