package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.run.ResultsTopology;
import io.netpulse.processor.run.RunTopology;
import io.netpulse.processor.run.SteadyConfig;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;

/**
 * The whole processor: lines and tool outputs → samples; samples → 1-s and 10-s rates; samples, tool
 * figures and the run lifecycle → per-repetition values and steady events; values → three-run
 * results. Each step is its own class with its own tests.
 */
public final class ProcessorTopology {

  private final Topics topics;
  private final SteadyConfig steadyDefaults;
  private final Map<String, SteadyConfig> steadyPerPlan;

  public ProcessorTopology(Topics topics) {
    this(topics, SteadyConfig.DEFAULTS, Map.of());
  }

  public ProcessorTopology(Topics topics, SteadyConfig steadyDefaults, Map<String, SteadyConfig> steadyPerPlan) {
    this.topics = topics;
    this.steadyDefaults = steadyDefaults;
    this.steadyPerPlan = steadyPerPlan;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    new ParseTopology(topics).build(builder);
    KStream<String, ToolFigure> figures = new ToolOutputTopology(topics).build(builder);
    // Read back from the topic so that every step sees the samples in their own time.
    KStream<String, Sample> samples = builder.stream(topics.samples(),
        Consumed.with(Serdes.String(), JsonSerde.of(Sample.class))
            .withTimestampExtractor(new SampleTimestampExtractor())
            .withName("samples"));
    new RateTopology(topics).build(samples);
    KStream<String, RunValue> values =
        new RunTopology(topics, steadyDefaults, steadyPerPlan).build(builder, samples, figures);
    new ResultsTopology(topics).build(values);
    return builder.build();
  }
}
