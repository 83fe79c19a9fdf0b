package io.netpulse.launcher.plan;

/** When a repetition ends: on the processor's steady event (plus a measuring window), or after the full duration. */
public enum StopMode {
  STEADY,
  FIXED
}
