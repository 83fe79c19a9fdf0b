package io.netpulse.common.catalog;

/** How the samples or tool figures of one repetition make its value. */
public enum How {
  /**
   * Mean of the per-second sar samples over the measuring window on the run's SUT and interface (the busiest series
   * when the run names none).
   */
  MEAN_ON_SUT,
  /** Sum of each tool instance's printed figure (netperf fan-out, iperf's clients). */
  SUM_OVER_INSTANCES,
  /** The tool's figure as printed (mean when a repetition ran it more than once). */
  AS_PRINTED,
  /** The highest sample over the measuring window (concurrent connections). */
  MAX_OVER_WINDOW;

  /** Made from per-second samplers judged by time (a per-second figure), rather than from a tool's final figure. */
  public boolean fromSamples() {
    return this == MEAN_ON_SUT || this == MAX_OVER_WINDOW;
  }
}
