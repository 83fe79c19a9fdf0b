package io.netpulse.cli.demo;

import io.netpulse.common.catalog.Sources;
import io.netpulse.collector.KafkaLineSink;
import io.netpulse.collector.ProcessLineSource;
import io.netpulse.common.Units;
import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.cli.stack.PipelineStack;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One metric end to end: traffic into a measured host, {@code sar -n DEV 1} on it streamed through
 * the collector into Kafka, the processor's 1-second receive rates printed live and as a table.
 */
public final class Demo implements AutoCloseable {

  private final PrintStream out;
  private final CompletableFuture<TrafficSetup> hosts;
  private PipelineStack stack;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private TrafficSetup traffic;
  private KafkaLineSink sink;
  private ProcessLineSource sampler;
  private LiveRateView view;
  private long trafficStartMs;
  private boolean closed;

  /** Starts setting up the test hosts at once, in the background, while the pipeline starts. */
  public Demo(PrintStream out) {
    this.out = out;
    this.hosts = CompletableFuture.supplyAsync(
        () -> HostNetwork.supported() ? new NamespaceTraffic() : new LoopbackTraffic());
  }

  /** Starts the sampler and the live view on the running pipeline, then the traffic. */
  public void start(PipelineStack pipeline, long bitsPerSecond) throws IOException {
    this.stack = pipeline;
    traffic = joinHosts();
    String run = "demo-" + UUID.randomUUID().toString().substring(0, 8);
    sink = new KafkaLineSink(stack.kafka(), stack.topics().lines());
    sampler = new ProcessLineSource(traffic.host(), Sources.SAR_DEV, run,
        traffic.onMeasuredHost(List.of("sar", "-n", "DEV", "1")),
        // C locale for '.' decimals and 24-hour times; UTC so row times need no zone guessing.
        Map.of("LC_ALL", "C", "TZ", "UTC", "S_TIME_FORMAT", "ISO"), sink).start();
    view = new LiveRateView(stack.kafka(), stack.topics(), traffic.host(), traffic.iface(), out).start();
    trafficStartMs = System.currentTimeMillis();
    traffic.startTraffic(bitsPerSecond);
    out.println("traffic   " + traffic.describe());
    out.println("sampler   LC_ALL=C sar -n DEV 1 on " + traffic.host() + " (pid " + sampler.pid() + ")");
  }

  /** Waits for the duration, or until {@link #requestStop()} (Ctrl-C) when duration is ≤ 0. */
  public void await(int durationSeconds) throws InterruptedException {
    if (durationSeconds > 0) {
      stopRequested.await(durationSeconds, TimeUnit.SECONDS);
    } else {
      stopRequested.await();
    }
  }

  public void requestStop() {
    stopRequested.countDown();
  }

  /**
   * Stops traffic, waits for the last seconds to come through and prints the table.
   *
   * @return the mean receive rate in bit/s over the whole seconds of traffic
   */
  public double finish() {
    long trafficEndMs = System.currentTimeMillis();
    traffic.close();
    // the last full second needs sar's next row and a window update to reach us
    NamespaceTraffic.sleep(2500);
    sampler.close();
    sink.close();
    view.close();
    // sar's row stamped W covers (W-1+φ, W+φ] for some phase φ in [0, 1): keep only rows that lie
    // inside the traffic whatever φ is, so no partial second at either end skews the table.
    long from = (trafficStartMs / 1000 + 2) * 1000;
    long to = (trafficEndMs / 1000) * 1000;
    List<LiveRateView.Second> secs = view.between(from, to);
    return printTable(secs);
  }

  private double printTable(List<LiveRateView.Second> secs) {
    out.println();
    out.printf("Receive rate on %s, interface %s (sar -n DEV 1, its per-second rows, %d s)%n",
        traffic.host(), traffic.iface(), secs.size());
    out.println("| metric | unit      |            mean |             min |             max |");
    out.println("|--------|-----------|-----------------|-----------------|-----------------|");
    double meanBps = row("rx_bps", Units.BITS_PER_S, secs.stream().mapToDouble(LiveRateView.Second::rxBps).toArray());
    row("rx_pps", Units.PACKETS_PER_S, secs.stream().mapToDouble(LiveRateView.Second::rxPps).toArray());
    out.printf("rx_bps mean = %s (Gbit/s = bit/s / 10^9; sar's kB is 1024 bytes)%n", Units.formatBits(meanBps));
    return meanBps;
  }

  private double row(String metric, String unit, double[] values) {
    double mean = 0;
    double min = values.length == 0 ? 0 : Double.MAX_VALUE;
    double max = 0;
    for (double v : values) {
      mean += v / values.length;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    out.printf(Locale.ROOT, "| %-6s | %-9s | %15.2f | %15.2f | %15.2f |%n", metric, unit, mean, min, max);
    return mean;
  }

  private TrafficSetup joinHosts() {
    try {
      return hosts.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (traffic == null) {
      // the pipeline failed to start while the hosts were being made: wait for them, then remove
      try {
        traffic = hosts.get(60, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        out.println("netpulse: test hosts were not made: " + e.getMessage());
      }
    }
    for (AutoCloseable c : new AutoCloseable[] {traffic, sampler, sink, view}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          out.println("netpulse: while stopping the demo: " + e.getMessage());
        }
      }
    }
  }
}
