package io.netpulse.launcher.run;

import java.time.Duration;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the test asks: its warm-up, the tools' time, the steady window ({@code null}: {@code stop: fixed}, or a test
 * that cannot stop when steady), its last stage of clients, whether some client runs until stopped, and whether a
 * value is a maximum of samples (a connection climb).
 */
record RepetitionShape(Duration warmup, Duration toolTime, Duration steadyWindow, int stages, boolean clientsHeld,
    boolean climb, boolean precision, SortedMap<Integer, Duration> judgedStages) {
  RepetitionShape {
    if (precision && steadyWindow == null) {
      throw new IllegalArgumentException("a precision stop is a steady stop: it needs the steady settings");
    }
    judgedStages = Collections.unmodifiableSortedMap(new TreeMap<>(judgedStages));
    if (!judgedStages.isEmpty() && (!precision || judgedStages.lastKey() > stages || judgedStages.firstKey() < 1)) {
      throw new IllegalArgumentException("stages judged on their own metrics need a precision stop and stages 1.."
          + stages + ": " + judgedStages.keySet());
    }
    if (warmup.isNegative() || toolTime.isNegative() || stages < 1) {
      throw new IllegalArgumentException("bad repetition shape: warmup " + warmup + ", tool time " + toolTime
          + ", stages " + stages);
    }
  }

  /** A shape whose stages, if several, are not judged on metrics of their own. */
  RepetitionShape(Duration warmup, Duration toolTime, Duration steadyWindow, int stages, boolean clientsHeld,
      boolean climb, boolean precision) {
    this(warmup, toolTime, steadyWindow, stages, clientsHeld, climb, precision,
        Collections.emptySortedMap());
  }

  /**
   * Whether each stage is judged on its own metric ({@link #judgedStages}: stage → how long its clients run),
   * rather than the repetition on one.
   */
  boolean staged() {
    return !judgedStages.isEmpty();
  }

  /** A shape judged by the spread rule (or fixed, without a steady window). */
  RepetitionShape(Duration warmup, Duration toolTime, Duration steadyWindow, int stages, boolean clientsHeld,
      boolean climb) {
    this(warmup, toolTime, steadyWindow, stages, clientsHeld, climb, false);
  }

  boolean steadyStop() {
    return steadyWindow != null;
  }

  /**
   * The clients are released together and run the tools' time, so until the tools' end all of them send; past it
   * one may have ended while another goes on (a TCP sender draining its buffer through a capped link), and a
   * second with only some of the clients is not the traffic measured: through a capped link rx_bandwidth read
   * 9.6 % low so (FidelityBedTest). Not for staged clients or clients held until stopped, nor for a connection
   * climb: its maximum comes at the end of the holder's own time, which starts when its JVM is up, seconds after
   * the release on a loaded host (cut at the tools' end, a climb of ~8,000 read 5,374).
   */
  boolean cutAtToolEnd() {
    return stages == 1 && !clientsHeld && !climb;
  }
}
