package io.netpulse.processor.run;

import java.util.HashMap;
import java.util.Map;

/** The repetitions seen under one run id, by {@code test#repetition}; lives in a state store. */
public final class RunState {

  public Map<String, RepetitionState> repetitions = new HashMap<>();
  /** Stream time (epoch ms) of the latest input, for eviction. */
  public long lastSeen;

  public RepetitionState repetition(String test, int repetition) {
    return repetitions.computeIfAbsent(test + "#" + repetition, k -> {
      RepetitionState r = new RepetitionState();
      r.test = test;
      r.repetition = repetition;
      return r;
    });
  }
}
