package io.netpulse.processor.window;

import io.netpulse.common.Topics;
import io.netpulse.common.event.WideSample;
import io.netpulse.processor.topology.ProcessorSerdes;
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
 * {@code metrics} rows → {@code windows}: per host and scope, each field's mean, min and max and the count of rows in
 * 10-s tumbling windows of the rows' own time (see {@link TenSecondWindowProcessor}), one record per window.
 */
public final class WindowTopology {

  /** A window record's name: its rows' measurement with this suffix ({@code net_10s}). */
  public static final String NAME_SUFFIX = "_10s";
  /** Per-second samplers print each row up to a second late; allow a few seconds of disorder. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

  private final Topics topics;
  private final Duration grace;

  public WindowTopology(Topics topics) {
    this(topics, DEFAULT_GRACE);
  }

  public WindowTopology(Topics topics, Duration grace) {
    this.topics = topics;
    this.grace = grace;
  }

  /** This step alone, reading {@code metrics}: for tests and for running it on its own. */
  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder.stream(topics.metrics(),
        Consumed.with(Serdes.String(), ProcessorSerdes.json(WideSample.class)).withName("metrics"))
        .mapValues(row -> java.util.List.of(row), Named.as("one-row")));
    return builder.build();
  }

  /** Adds the windows over an existing stream of rows keyed by host, those of one input record together. */
  public void build(KStream<String, java.util.List<WideSample>> rows) {
    ProcessorSupplier<String, java.util.List<WideSample>, String, WideSample> windows = new ProcessorSupplier<>() {
      @Override
      public Processor<String, java.util.List<WideSample>, String, WideSample> get() {
        return new TenSecondWindowProcessor(grace);
      }

      @Override
      public Set<StoreBuilder<?>> stores() {
        return Set.of(TenSecondWindowProcessor.storeBuilder());
      }
    };
    rows.process(windows, Named.as("ten-second-windows"))
        .to(topics.windows(), Produced.with(Serdes.String(), ProcessorSerdes.json(WideSample.class))
            .withName("windows-out"));
  }
}
