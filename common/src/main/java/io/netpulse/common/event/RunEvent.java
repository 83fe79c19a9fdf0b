package io.netpulse.common.event;

/** Lifecycle of one repetition of one test of a plan, keyed by run id on {@code runs}. */
public record RunEvent(
    int schema, String run, String plan, String test, int repetition, Phase phase, long ts, String reason) {

  public static final int SCHEMA = 1;

  public enum Phase { PLANNED, PREPARING, WARMUP, MEASURING, STEADY, STOPPING, DONE, FAILED }
}
