package io.netpulse.processor.run;

import java.util.HashMap;
import java.util.Map;

/**
 * What the processor knows of one repetition: its measuring window and the figures its tool
 * instances printed. Mutable on purpose: it lives only inside a state store, read, changed, written.
 */
public final class RepetitionState {

  public String plan;
  public String test;
  public int repetition;
  /** Epoch ms the measuring phase began, 0 before. */
  public long start;
  /** Epoch ms the phase after measuring began, 0 while measuring. */
  public long end;
  public boolean failed;
  /** Tool figures: sample metric → instance → value, so a figure delivered twice counts once. */
  public Map<String, Map<String, Double>> figures = new HashMap<>();

  public boolean closed() {
    return start > 0 && end > 0;
  }

  public boolean counts() {
    return closed() && !failed;
  }

  public boolean inWindow(long ts) {
    return start > 0 && ts >= start && (end == 0 || ts < end);
  }
}
