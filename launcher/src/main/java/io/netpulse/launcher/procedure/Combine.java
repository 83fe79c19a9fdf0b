package io.netpulse.launcher.procedure;

import io.netpulse.processor.run.RunValueRules;

/** How one repetition's value is made from the samples of a metric: the processor's {@link RunValueRules.How}. */
public enum Combine {
  /** Mean of the per-second samples over the measuring phase (sar on the SUT). */
  MEAN_OF_SAMPLES(RunValueRules.How.MEAN_ON_SUT),
  /** Each instance's own figure, added up over instances (netperf CRR/RR/UDP_STREAM). */
  SUM_OVER_INSTANCES(RunValueRules.How.SUM_OVER_INSTANCES),
  /** The figure the tool prints at the end (qperf, sockperf, ping); the mean if several instances print one. */
  PRINTED(RunValueRules.How.AS_PRINTED),
  /** The largest sample once it stops rising (ss -s estab for concurrent connections). */
  MAX_OF_SAMPLES(RunValueRules.How.MAX_OVER_WINDOW);

  private final RunValueRules.How how;

  Combine(RunValueRules.How how) {
    this.how = how;
  }

  /** The processor's name for this way of combining. */
  public RunValueRules.How how() {
    return how;
  }
}
