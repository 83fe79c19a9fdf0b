package io.netpulse.processor;

import io.netpulse.processor.topology.ParseTopology;
import io.netpulse.processor.topology.ProcessorSerdes;
import io.netpulse.processor.topology.RateTopology;
import io.netpulse.processor.topology.SampleTime;
import io.netpulse.processor.topology.ToolFigure;
import io.netpulse.processor.topology.ToolOutputTopology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import io.netpulse.processor.run.ResultsTopology;
import io.netpulse.processor.run.RunTopology;
import io.netpulse.processor.run.SteadyConfig;
import io.netpulse.processor.window.WindowTopology;
import java.util.Map;
import io.netpulse.common.json.JsonSerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The whole processor: lines and tool outputs → samples and rows; samples → 1-s and 10-s rates; rows → 10-s
 * windows; samples, tool
 * figures and the run lifecycle → per-repetition values and steady events; values → three-run
 * results. Each step is its own class with its own tests.
 */
public final class ProcessorTopology {

  private final Topics topics;
  private final SteadyConfig steadyDefaults;
  private final Map<String, SteadyConfig> steadyPerPlan;
  private final java.time.Duration rateEmitEvery;

  public ProcessorTopology(Topics topics) {
    this(topics, SteadyConfig.DEFAULTS, Map.of());
  }

  public ProcessorTopology(Topics topics, SteadyConfig steadyDefaults, Map<String, SteadyConfig> steadyPerPlan) {
    this(topics, steadyDefaults, steadyPerPlan, RateTopology.DEFAULT_EMIT_EVERY);
  }

  /**
   * @param rateEmitEvery how often changed rate windows are emitted: no more often than the commit interval, since
   *                      with exactly-once a reader sees them only at a commit anyway
   */
  public ProcessorTopology(Topics topics, SteadyConfig steadyDefaults, Map<String, SteadyConfig> steadyPerPlan,
      java.time.Duration rateEmitEvery) {
    this.topics = topics;
    this.steadyDefaults = steadyDefaults;
    this.steadyPerPlan = steadyPerPlan;
    this.rateEmitEvery = rateEmitEvery;
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    // Samples go on in-process (re-stamped with their own time) as well as to the samples topic:
    // reading the topic back cost a second serde round trip and a second transactional hop.
    ParseTopology.Parsed parsed = new ParseTopology(topics).build(builder);
    KStream<String, Sample> samples = parsed.samples();
    // the rows parsed from lines: tool-output gives a run's whole-run figures, not a per-second series
    new WindowTopology(topics).build(parsed.rows());
    KStream<String, ToolFigure> figures = new ToolOutputTopology(topics).build(builder);
    // Tool outputs are keyed by run: their few samples move to the host's partition, where that
    // host's rate buckets live.
    KStream<String, Sample> toolSamples = figures
        .map((run, f) -> KeyValue.pair(f.sample().host(), f.sample()), Named.as("tool-samples-to-host"))
        .repartition(Repartitioned.<String, Sample>as("tool-samples-by-host")
            .withKeySerde(Serdes.String()).withValueSerde(ProcessorSerdes.json(Sample.class)))
        .processValues(SampleTime::new, Named.as("tool-sample-time"));
    samples = samples.merge(toolSamples, Named.as("all-samples"));
    new RateTopology(topics, RateTopology.DEFAULT_GRACE, rateEmitEvery).build(samples);
    KStream<String, RunValue> values =
        new RunTopology(topics, steadyDefaults, steadyPerPlan).build(builder, samples, figures);
    new ResultsTopology(topics).build(values);
    return builder.build();
  }
}
