package io.netpulse.processor.run;

import java.util.HashMap;
import java.util.Map;

/**
 * What the processor knows of one repetition: its measuring window and the figures its tool
 * instances printed. Mutable on purpose: it lives only inside a state store, read, changed, written.
 */
public final class RepetitionState {

  public String plan;
  /** The test's name within its plan: part of the results key. */
  public String test;
  /** The plan's test type from the lifecycle; null from older producers (then the name is the type). */
  public String type;
  /** Host and interface under test from the lifecycle; null: the busiest series is taken. */
  public String sut;
  public String iface;
  /** The plan execution the run belongs to; null from older producers. */
  public String execution;
  public int repetition;
  /** The plan's labels, the test's hosts' facts and its planned repetitions from the lifecycle; null: unknown. */
  public Map<String, String> labels;
  public java.util.List<io.netpulse.common.event.HostInfo> hostFacts;
  public Integer repetitionsPlanned;
  /** Tool client instances the repetition started, from the lifecycle; null: unknown. */
  public Integer clients;
  /** Epoch ms the measuring phase began, 0 before. */
  public long start;
  /** Epoch ms the phase after measuring began, 0 while measuring. */
  public long end;
  public boolean failed;
  /** Why its measuring ended, from the STOPPING event ({@code RunEvent.STOP_*}); null: not said. */
  public String stopReason;
  /**
   * Result metric → why its own measuring ended, where the repetition's metrics stopped for different reasons (a
   * latency test's stages); empty otherwise and in states written before it.
   */
  public Map<String, String> stopReasons = new HashMap<>();
  /** Tool figures: sample metric → instance → value, so a figure delivered twice counts once. */
  public Map<String, Map<String, Double>> figures = new HashMap<>();
  /**
   * For printed figures that are the mean of per-reply figures (ping's rtt_avg_ms): sample metric → instance → those
   * figures in order, for the value's precision (empty in states written before it: Jackson keeps the initializer).
   */
  public Map<String, Map<String, java.util.List<Double>>> series = new HashMap<>();

  /** What picks the result rules: the type when the lifecycle gave one, else the test's name. */
  public String rulesKey() {
    return type != null ? type : test;
  }

  /** Why {@code metric}'s measuring ended: its own reason where the STOPPING event gave one, else the repetition's. */
  public String stopReasonOf(String metric) {
    return stopReasons.getOrDefault(metric, stopReason);
  }

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
