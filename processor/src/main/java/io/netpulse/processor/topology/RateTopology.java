package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * {@code samples} → {@code rates}: per host/iface/metric, the mean, min, max and count of the
 * per-second samples in 1-second tumbling and 10-second hopping (1-s advance) windows of the
 * samples' own time (see {@link RateProcessor}). Summary samples
 * (sar's {@code Average:} rows) are the tool's whole-run figure, not a per-second value, and are
 * left out.
 */
public final class RateTopology {

  /** Per-second samplers print each row up to a second late; allow a few seconds of disorder. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);
  /** As often as the processor commits: a live chart sees each second's rate within ~0.1 s. */
  public static final Duration DEFAULT_EMIT_EVERY = Duration.ofMillis(100);

  private final Topics topics;
  private final Duration grace;
  private final Duration emitEvery;

  public RateTopology(Topics topics) {
    this(topics, DEFAULT_GRACE);
  }

  public RateTopology(Topics topics, Duration grace) {
    this(topics, grace, DEFAULT_EMIT_EVERY);
  }

  /** @param emitEvery how often (wall-clock) the windows changed since the last time are emitted */
  public RateTopology(Topics topics, Duration grace, Duration emitEvery) {
    this.topics = topics;
    this.grace = grace;
    this.emitEvery = emitEvery;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder);
    return builder.build();
  }

  public void build(StreamsBuilder builder) {
    build(builder.stream(topics.samples(),
        Consumed.with(Serdes.String(), ProcessorSerdes.json(Sample.class))
            .withTimestampExtractor(new SampleTimestampExtractor())
            .withName("samples")));
  }

  /**
   * Adds both window sizes over an existing stream of samples keyed by host (one source per topic per
   * topology); the rates go to {@code rates} keyed host/iface/metric.
   */
  public void build(KStream<String, Sample> samples) {
    ProcessorSupplier<String, Sample, String, RateEvent> rates = new ProcessorSupplier<>() {
      @Override
      public Processor<String, Sample, String, RateEvent> get() {
        return new RateProcessor(grace, emitEvery);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return Set.of(RateProcessor.storeBuilder());
      }
    };
    samples.process(rates, Named.as("rates"))
        .to(topics.rates(), Produced.<String, RateEvent>with(Serdes.String(), ProcessorSerdes.json(RateEvent.class))
            .withName("rates-out"));
  }
}
