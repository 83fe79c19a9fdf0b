package io.netpulse.collector;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The collector's per-source counters as Micrometer meters, labelled by host and source; the Prometheus names are
 * those the hand-written exposition had ({@code netpulse_collector_lines_read_total}, ...), listed in
 * docs/collector.md. Sources appear while the collector runs: {@link #refresh()} (called before each scrape)
 * registers the new ones.
 */
public final class CollectorMeters implements MeterBinder {

  private record Family(String name, String baseUnit, String help, ToDoubleFunction<SourceStats> value) {}

  // Micrometer names: the Prometheus registry appends the base unit and _total
  private static final List<Family> PER_SOURCE = List.of(
      new Family("netpulse.collector.lines.read", null, "Lines read from the sampler or tool.", SourceStats::read),
      new Family("netpulse.collector.lines.sent", null, "Lines acknowledged by Kafka (acks=all).", SourceStats::sent),
      new Family("netpulse.collector.lines.spooled", null,
          "Lines written to the disk spool because Kafka was behind or away.", SourceStats::spooled),
      new Family("netpulse.collector.lines.dropped", null,
          "Lines lost: spool bound hit, refused by Kafka, or no spool at shutdown.", SourceStats::dropped),
      new Family("netpulse.collector.sampler.restarts", null, "Times the sampler was started again after it died.",
          SourceStats::restarts),
      new Family("netpulse.collector.ssh.gaps", null, "Reconnections after a lost SSH session.", SourceStats::gaps),
      new Family("netpulse.collector.ssh.gap", "seconds", "Time without an SSH connection over all gaps, in seconds.",
          s -> s.gapMillis() / 1000.0),
      new Family("netpulse.collector.restart.gaps", null, "Collector restarts after which the source read again.",
          SourceStats::restartGaps),
      new Family("netpulse.collector.restart.gap", "seconds",
          "Time from the previous collector start's last line to this start's first, in seconds.",
          s -> s.restartGapMillis() / 1000.0));

  private final CollectorMetrics metrics;
  private final Set<SourceId> registered = ConcurrentHashMap.newKeySet();
  private volatile MeterRegistry registry;

  public CollectorMeters(CollectorMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    refresh();
  }

  /** Registers the meters of sources that appeared since the last call. */
  public void refresh() {
    MeterRegistry r = registry;
    if (r == null) {
      return;
    }
    for (SourceStats s : metrics.snapshot()) {
      SourceId id = s.id();
      if (!registered.add(id)) {
        continue;
      }
      Tags tags = Tags.of("host", id.host(), "source", id.source());
      for (Family f : PER_SOURCE) {
        // the counter reads the live figure at each scrape; CollectorMetrics keeps the source for the JVM's life
        FunctionCounter.builder(f.name(), metrics, m -> f.value().applyAsDouble(m.stats(id.host(), id.source())))
            .description(f.help()).baseUnit(f.baseUnit()).tags(tags).register(r);
      }
    }
  }
}
