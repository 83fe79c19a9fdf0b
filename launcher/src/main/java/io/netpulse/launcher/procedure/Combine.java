package io.netpulse.launcher.procedure;

/** How one repetition's value is made from the samples of a metric. */
public enum Combine {
  /** Mean of the per-second samples over the measuring phase (sar on the SUT). */
  MEAN_OF_SAMPLES,
  /** Each instance's own figure, added up over instances (netperf CRR/RR/UDP_STREAM). */
  SUM_OVER_INSTANCES,
  /** The figure the tool prints at the end (qperf, sockperf, ping); the mean if several instances print one. */
  PRINTED,
  /** The largest sample once it stops rising (ss -s estab for concurrent connections). */
  MAX_OF_SAMPLES
}
