package io.netpulse.launcher.run;

import java.lang.management.ManagementFactory;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * This JVM's CPU time, sampled every 200 ms: how many cores the in-process pipeline (broker, processor,
 * store, dashboard, SSH) took from the test hosts' traffic over a stretch of wall time. Diagnostic only.
 */
final class JvmCpuSampler implements AutoCloseable {

  private static final long PERIOD_MS = 200;

  private final NavigableMap<Long, Long> cpuNanosAt = new ConcurrentSkipListMap<>();
  private final Thread thread;
  private volatile boolean closed;

  private JvmCpuSampler() {
    thread = new Thread(this::loop, "jvm-cpu-sampler");
    thread.setDaemon(true);
  }

  static JvmCpuSampler start() {
    JvmCpuSampler s = new JvmCpuSampler();
    s.sample();
    s.thread.start();
    return s;
  }

  /** Mean cores used between two epoch-ms instants (nearest samples inside them); NaN without two samples. */
  double coresBetween(long startMs, long endMs) {
    var first = cpuNanosAt.ceilingEntry(startMs);
    var last = cpuNanosAt.floorEntry(endMs);
    if (first == null || last == null || last.getKey() <= first.getKey()) {
      return Double.NaN;
    }
    return (last.getValue() - first.getValue()) / 1e6 / (last.getKey() - first.getKey());
  }

  private void sample() {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    cpuNanosAt.put(System.currentTimeMillis(), os.getProcessCpuTime());
  }

  private void loop() {
    // a flag, not the interrupt status: code under test may interrupt threads it does not own
    while (!closed) {
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        // keep sampling until closed
      }
      sample();
    }
  }

  @Override
  public void close() {
    closed = true;
  }
}
