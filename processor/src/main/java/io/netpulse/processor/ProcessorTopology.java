package io.netpulse.processor;

import io.netpulse.processor.topology.ParseTopology;
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
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The whole processor: lines and tool outputs → rows (metrics); rows → 10-s windows; samples, tool
 * figures and the run lifecycle → per-repetition values and steady events; values → three-run
 * results. Each step is its own class with its own tests.
 */
public final class ProcessorTopology {

  private final Topics topics;
  private final RunTopology runs;

  public ProcessorTopology(Topics topics) {
    this(topics, SteadyConfig.DEFAULTS, Map.of());
  }

  public ProcessorTopology(Topics topics, SteadyConfig steadyDefaults, Map<String, SteadyConfig> steadyPerPlan) {
    this.topics = topics;
    this.runs = new RunTopology(topics, steadyDefaults, steadyPerPlan);
  }

  public Topology build() {
    StreamsBuilder builder = new StreamsBuilder();
    // One record per row goes to metrics; the samples (one per value) go on in-process only, to the run values and
    // steady detection, which read them per run.
    ParseTopology.Parsed parsed = new ParseTopology(topics).build(builder);
    // the rows parsed from lines: tool-output gives a run's whole-run figures, not a per-second series
    new WindowTopology(topics).build(parsed.rows());
    KStream<String, ToolFigure> figures = new ToolOutputTopology(topics).build(builder);
    // A tool's figures are keyed by run, as the run values read them: no repartition to the host's partition.
    KStream<String, Sample> toolSamples = figures
        .mapValues(ToolFigure::sample, Named.as("tool-figure-samples"))
        .processValues(SampleTime::new, Named.as("tool-sample-time"));
    KStream<String, Sample> samples = parsed.samples().merge(toolSamples, Named.as("all-samples"));
    KStream<String, RunValue> values = runs.build(builder, samples, figures);
    new ResultsTopology(topics).build(values);
    return builder.build();
  }
}
