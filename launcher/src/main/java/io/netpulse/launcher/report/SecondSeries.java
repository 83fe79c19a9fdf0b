package io.netpulse.launcher.report;

import java.util.List;

/**
 * The 1-s rates of one repetition's SUT series over its measuring window.
 *
 * @param host   the series' host (the repetition's SUT)
 * @param iface  the series' interface, null for host-wide metrics (ss -s connection counts)
 * @param points one per 1-s window, in window order
 */
public record SecondSeries(int repetition, String run, String host, String iface, long measuringStart,
    List<Point> points) {

  public SecondSeries {
    points = List.copyOf(points);
  }

  /** One 1-s window: its start (epoch ms) and the mean of its samples. */
  public record Point(long windowStart, double mean) {

    /** Seconds from the start of measuring to the start of this window, so repetitions overlay. */
    public double offsetSeconds(long measuringStart) {
      return (windowStart - measuringStart) / 1000.0;
    }
  }
}
