package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.WideSample;
import io.netpulse.launcher.plan.TestSpec;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The live terminal view of a run, on stderr (stdout is kept for the result, e.g. {@code --format json}):
 * one progress bar per repetition with test, repetition, phase, elapsed seconds and the current 1-s
 * rate of the metric under test on the SUT: the newest of its per-second samples on {@code netpulse.metrics} (a
 * per-second sampler's 1-s rate is its sample). On a terminal the bar redraws in place; otherwise (CI
 * logs, a pipe) it prints a plain line every few seconds.
 */
final class RunProgress implements AutoCloseable {

  private final PrintStream out;
  private final boolean interactive;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "netpulse-progress");
    t.setDaemon(true);
    return t;
  });
  private ProgressBar bar;
  private ScheduledFuture<?> tick;
  private long started;
  private volatile Phase phase;
  private volatile String label;
  private volatile Watch watch;
  private volatile String rate = "";
  /** the second {@link #rate} is of: an older one arriving late (a loaded processor) is not shown */
  private volatile long rateTime = Long.MIN_VALUE;

  /**
   * The series whose 1-s rate is shown: the SUT's metric under test, a field of measurement {@code measurement}
   * ({@code net}, {@code netstat}: the catalog's {@code Sources.measurementOf}); {@code iface} null: any interface.
   */
  record Watch(String measurement, String host, String iface, String metric) {}

  RunProgress(PrintStream out, boolean interactive) {
    this.out = out;
    this.interactive = interactive;
  }

  synchronized void startRepetition(TestSpec test, int repetition, long plannedSeconds) {
    closeBar();
    label = test.label() + " rep " + repetition + "/" + test.repetitions();
    phase = Phase.PREPARING;
    rate = "";
    rateTime = Long.MIN_VALUE;
    started = System.currentTimeMillis();
    bar = new ProgressBarBuilder()
        .setTaskName(label)
        .setInitialMax(Math.max(1, plannedSeconds))
        .setUnit(" s", 1)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(interactive ? 500 : 5000)
        .setConsumer(interactive ? new ConsoleProgressBarConsumer(out) : new DelegatingProgressBarConsumer(out::println, 120))
        .hideEta()
        .build();
    tick = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
  }

  void watch(Watch w) {
    this.watch = w;
  }

  void phase(Phase p) {
    phase = p;
    tick();
  }

  /**
   * A wide record from the processor; its field is shown when it is the watched series and no older than the second
   * shown (records can arrive out of order: a late sar row, a restarted processor's replay). Whole-run summaries
   * (sar's {@code Average:} rows, a tool's final figure) are no second's rate.
   */
  synchronized void onMetric(WideSample m) {
    Watch w = watch;
    if (w == null || m == null || !w.measurement().equals(m.name()) || !w.host().equals(m.tags().get("host"))
        || m.summaryRow() || m.time() < rateTime) {
      return;
    }
    if (w.iface() != null && !w.iface().equals(m.tags().get("interface"))) {
      return;
    }
    Double value = m.fields().get(w.metric());
    if (value != null) {
      rateTime = m.time();
      rate = Figures.format(value, m.units().get(w.metric()));
    }
  }

  /** The rate shown now, as formatted ("" before the first). */
  String shownRate() {
    return rate;
  }

  private synchronized void tick() {
    if (bar == null) {
      return;
    }
    long elapsed = (System.currentTimeMillis() - started) / 1000;
    if (elapsed > bar.getMax()) {
      bar.maxHint(elapsed);
    }
    bar.stepTo(elapsed);
    bar.setExtraMessage(" " + phase.name().toLowerCase(Locale.ROOT) + (rate.isEmpty() ? "" : " " + rate));
  }

  /** The repetition's end, with where its time went: starting processes, traffic, stopping and publishing. */
  synchronized void endRepetition(String failure, long setupMillis, long trafficMillis, long windDownMillis) {
    closeBar();
    long secs = (System.currentTimeMillis() - started) / 1000;
    String split = String.format(Locale.ROOT, " (start %.1f s, traffic %.1f s, stop %.1f s)", setupMillis / 1000.0,
        trafficMillis / 1000.0, windDownMillis / 1000.0);
    out.println(label + ": " + (failure == null ? "done in " + secs + " s" + split
        : "FAILED after " + secs + " s: " + failure));
    watch = null;
  }

  void message(String line) {
    synchronized (this) {
      out.println(line);
    }
  }

  private void closeBar() {
    if (tick != null) {
      tick.cancel(false);
      tick = null;
    }
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }

  @Override
  public synchronized void close() {
    closeBar();
    ticker.shutdownNow();
  }
}
