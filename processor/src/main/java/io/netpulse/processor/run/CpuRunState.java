package io.netpulse.processor.run;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the CPU step keeps per run: its repetitions' windows, and the hosts whose figure a sample arriving after the
 * window closed has changed (sent again on the next punctuation, once for all of that second's lines). Lives in a
 * state store.
 */
public final class CpuRunState {

  public Map<String, RepetitionState> repetitions = new HashMap<>();
  /** {@code test#repetition} and host (apart by U+0001) of closed windows to send again. */
  public TreeSet<String> changed = new TreeSet<>();
  /** Stream time (epoch ms) of the latest input, for eviction. */
  public long lastSeen;

  RepetitionState repetition(String test, int repetition) {
    return repetitions.computeIfAbsent(test + "#" + repetition, k -> {
      RepetitionState r = new RepetitionState();
      r.test = test;
      r.repetition = repetition;
      return r;
    });
  }
}
