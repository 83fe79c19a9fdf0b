package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.Stores;

/**
 * {@code samples} → {@code rates}: per host/iface/metric, the mean, min, max and count of the
 * per-second samples in 1-second tumbling and 10-second hopping (1-s advance) windows of the
 * samples' own time. Summary samples
 * (sar's {@code Average:} rows) are the tool's whole-run figure, not a per-second value, and are
 * left out.
 */
public final class RateTopology {

  /** Per-second samplers print each row up to a second late; allow a few seconds of disorder. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);

  private final Topics topics;
  private final Duration grace;

  public RateTopology(Topics topics) {
    this(topics, DEFAULT_GRACE);
  }

  public RateTopology(Topics topics, Duration grace) {
    this.topics = topics;
    this.grace = grace;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder);
    return builder.build();
  }

  public void build(StreamsBuilder builder) {
    build(builder.stream(topics.samples(),
        Consumed.with(Serdes.String(), JsonSerde.of(Sample.class))
            .withTimestampExtractor(new SampleTimestampExtractor())
            .withName("samples")));
  }

  /** Adds both window sizes over an existing stream of samples (one source per topic per topology). */
  public void build(KStream<String, Sample> samples) {
    KGroupedStream<String, Sample> series = samples
        .filter((host, s) -> s != null && !s.summary() && Double.isFinite(s.value()), Named.as("per-second"))
        .groupBy((host, s) -> s.seriesKey(),
            Grouped.with("by-series", Serdes.String(), JsonSerde.of(Sample.class)));
    rates(series, "1s", TimeWindows.ofSizeAndGrace(Duration.ofSeconds(1), grace));
    // 10-s windows advancing each second: a smoothed curve that still moves every second.
    rates(series, "10s", TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), grace).advanceBy(Duration.ofSeconds(1)));
  }

  private void rates(KGroupedStream<String, Sample> series, String name, TimeWindows windows) {
    series.windowedBy(windows)
        .aggregate(WindowStats::empty, (key, s, stats) -> stats.add(s),
            Named.as("rate-" + name),
            // In memory (changelogged, restored on restart): a window lives seconds, RocksDB costs more than it saves.
            Materialized.<String, WindowStats>as(Stores.inMemoryWindowStore("rates-" + name,
                    windows.size() == 0 ? grace : Duration.ofMillis(windows.size()).plus(grace),
                    Duration.ofMillis(windows.size()), false))
                .withKeySerde(Serdes.String())
                .withValueSerde(JsonSerde.of(WindowStats.class)))
        .toStream(Named.as("rates-" + name + "-changes"))
        .map((Windowed<String> w, WindowStats stats) ->
            KeyValue.pair(w.key(), stats.toRate(name, w.window().start(), w.window().end())),
            Named.as("rates-" + name + "-events"))
        .to(topics.rates(), Produced.<String, RateEvent>with(Serdes.String(), JsonSerde.of(RateEvent.class))
            .withName("rates-" + name + "-out"));
  }
}
