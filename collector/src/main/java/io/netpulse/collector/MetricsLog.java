package io.netpulse.collector;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs every source's counters (and the heap in use) at a fixed interval, and once more at close. */
public final class MetricsLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(MetricsLog.class);

  private final CollectorMetrics metrics;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "collector-metrics-log");
    t.setDaemon(true);
    return t;
  });

  public MetricsLog(CollectorMetrics metrics, Duration interval) {
    this.metrics = metrics;
    long ms = interval.toMillis();
    timer.scheduleAtFixedRate(this::report, ms, ms, TimeUnit.MILLISECONDS);
  }

  public void report() {
    for (SourceStats s : metrics.snapshot()) {
      LOG.info("counters {}", s.logLine());
    }
    Runtime rt = Runtime.getRuntime();
    LOG.info("heap used_bytes={} max_bytes={}", rt.totalMemory() - rt.freeMemory(), rt.maxMemory());
  }

  @Override
  public void close() {
    timer.shutdownNow();
    report();
  }
}
