package io.netpulse.bench;

import io.netpulse.common.catalog.Sources;
import io.netpulse.collector.CollectorMetrics;
import io.netpulse.collector.KafkaLineSink;
import io.netpulse.collector.LineEmitter;
import io.netpulse.collector.SinkSettings;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * N simulated hosts, each printing {@code sar -n DEV 1} every second and {@code ss -s} every second, through the
 * collector's real path: one {@link LineEmitter} per host and source (host, source, seq, ts), agentless collectors of
 * {@value #HOSTS_PER_COLLECTOR} hosts each sharing one {@link KafkaLineSink}. Hosts are spread over the second in ten
 * slots, as real samplers started at different times are.
 */
final class FleetSimulator implements AutoCloseable {

  static final int HOSTS_PER_COLLECTOR = 250;
  private static final int SLOTS = 10;

  private final int hosts;
  private final SarLineGenerator generator;
  private final List<KafkaLineSink> sinks = new ArrayList<>();
  private final LineEmitter[] sar;
  private final LineEmitter[] ss;
  private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "fleet-hosts");
    t.setDaemon(true);
    return t;
  });
  private long tick;

  FleetSimulator(KafkaConnection kafka, String linesTopic, int hosts) {
    this.hosts = hosts;
    this.generator = new SarLineGenerator(hosts, 7);
    this.sar = new LineEmitter[hosts];
    this.ss = new LineEmitter[hosts];
    CollectorMetrics metrics = new CollectorMetrics();
    KafkaLineSink sink = null;
    for (int h = 0; h < hosts; h++) {
      if (h % HOSTS_PER_COLLECTOR == 0) {
        // memory for ~20 s of this collector's lines; one send-and-wait round trip per ~1/3 s of lines
        sink = new KafkaLineSink(new SinkSettings(kafka, linesTopic, null, HOSTS_PER_COLLECTOR * 16 * 20,
            SinkSettings.DEFAULT_SPOOL_MAX_BYTES, 2000, Duration.ofSeconds(10), SinkSettings.DEFAULT_BATCH_LINGER), metrics);
        sinks.add(sink);
      }
      String name = "fleet-host-" + h;
      sar[h] = new LineEmitter(name, Sources.SAR_DEV, null, sink, metrics);
      ss[h] = new LineEmitter(name, "ss-summary", null, sink, metrics);
    }
  }

  void start() {
    ticker.scheduleAtFixedRate(this::tick, 0, 1000 / SLOTS, TimeUnit.MILLISECONDS);
  }

  private void tick() {
    int slot = (int) (tick++ % SLOTS);
    long second = System.currentTimeMillis() / 1000 * 1000;
    for (int h = slot; h < hosts; h += SLOTS) {
      for (SarLineGenerator.SourceLine l : generator.second(h, second, true)) {
        (l.source().equals(Sources.SAR_DEV) ? sar[h] : ss[h]).emit(l.text());
      }
    }
  }

  /** Lines handed to the collectors' sinks so far. */
  long linesEmitted() {
    long n = 0;
    for (int h = 0; h < hosts; h++) {
      n += sar[h].emitted() + ss[h].emitted();
    }
    return n;
  }

  /** Lines Kafka has acknowledged. */
  long linesSent() {
    return sinks.stream().mapToLong(KafkaLineSink::sent).sum();
  }

  /** Stops the hosts; the sinks drain what they hold. */
  void stopHosts() throws InterruptedException {
    ticker.shutdown();
    ticker.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    stopHosts();
    sinks.forEach(KafkaLineSink::close);
  }
}
