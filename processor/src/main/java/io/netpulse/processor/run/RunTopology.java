package io.netpulse.processor.run;

import io.netpulse.common.Topics;
import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.processor.topology.SampleTime;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.json.Json;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.topology.InputLimits;
import io.netpulse.processor.topology.Origin;
import io.netpulse.processor.topology.ProcessorSerdes;
import io.netpulse.processor.topology.RawRecordReader;
import io.netpulse.processor.topology.ToolFigure;
import io.netpulse.processor.topology.ToolOutputTopology;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Runs: the lifecycle on {@code runs}, the samples that carry a run id and the tool figures meet,
 * keyed by run, in one repartition topic; from there {@link RunValueProcessor} makes each
 * repetition's values (returned, keyed plan/execution/test/metric), {@link SteadyProcessor} the
 * {@code steady} events and {@link CpuUseProcessor} each host's CPU use per repetition ({@code cpu}).
 * A {@code runs} record that is not a RunEvent goes to the DLQ.
 */
public final class RunTopology {

  /**
   * A lifecycle event is a few hundred bytes; its reason is one message. A PREPARING event also carries its test's
   * hosts' facts, a few KiB each with ethtool's offloads: room for a hundred client hosts. Run state holds each one
   * it reads.
   */
  static final int MAX_RUN_EVENT_BYTES = 512 * 1024;

  private final Topics topics;
  private final SteadyConfig steadyDefaults;
  private final Map<String, SteadyConfig> steadyPerPlan;

  public RunTopology(Topics topics) {
    this(topics, SteadyConfig.DEFAULTS, Map.of());
  }

  /** @param steadyPerPlan thresholds for the runs of a named plan; others use {@code steadyDefaults} */
  public RunTopology(Topics topics, SteadyConfig steadyDefaults, Map<String, SteadyConfig> steadyPerPlan) {
    this.topics = topics;
    this.steadyDefaults = steadyDefaults;
    this.steadyPerPlan = Map.copyOf(steadyPerPlan);
  }

  /**
   * Standalone, for tests of this step: reads {@code metrics} (each row's values as samples, stamped with their time)
   * and {@code tool-output} itself and writes the run values to {@code topic}.
   */
  public Topology build(String runValuesTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    KStream<String, Sample> samples = builder.stream(topics.metrics(),
            Consumed.with(Serdes.String(), ProcessorSerdes.json(WideSample.class)))
        .flatMapValues(WideSample::samples, Named.as("row-samples"))
        .processValues(SampleTime::new, Named.as("row-sample-time"));
    KStream<String, ToolFigure> figures = new ToolOutputTopology(topics).build(builder);
    build(builder, samples, figures)
        .to(runValuesTopic, Produced.with(Serdes.String(), ProcessorSerdes.json(RunValue.class)));
    return builder.build();
  }

  /**
   * @param samples samples keyed by host (those without a run id are ignored here)
   * @param figures tool figures keyed by run
   * @return each repetition's values keyed plan/execution/test/metric (also the updates of late inputs)
   */
  public KStream<String, RunValue> build(StreamsBuilder builder, KStream<String, Sample> samples,
      KStream<String, ToolFigure> figures) {
    KStream<String, Either> read = builder
        .stream(topics.runs(), Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("runs"))
        .processValues(() -> RawRecordReader.of(topics.runs(), this::readRunEvent), Named.as("read-runs"));
    read.filter((k, either) -> either.deadLetter() != null, Named.as("runs-unreadable"))
        .map((k, either) -> KeyValue.pair(DeadLetter.boundedKey(k), either.deadLetter()), Named.as("runs-dead-letters"))
        .to(topics.dlq(), Produced.with(Serdes.String(), ProcessorSerdes.json(DeadLetter.class)).withName("runs-dlq"));
    KStream<String, RunInput> lifecycle = read
        .filter((k, either) -> either.event() != null, Named.as("runs-read"))
        .map((k, either) -> KeyValue.pair(either.event().run(), RunInput.of(either.event())), Named.as("lifecycle-input"));
    KStream<String, RunInput> runSamples = samples
        .filter((host, s) -> s != null && s.run() != null, Named.as("samples-of-runs"))
        .map((host, s) -> KeyValue.pair(s.run(), RunInput.of(s)), Named.as("samples-by-run"));
    KStream<String, RunInput> runFigures = figures
        .mapValues(RunInput::of, Named.as("figure-input"));
    KStream<String, RunInput> byRun = lifecycle.merge(runSamples, Named.as("merge-run-inputs"))
        .merge(runFigures, Named.as("merge-run-figures"))
        .repartition(Repartitioned.<String, RunInput>as("run-inputs")
            .withKeySerde(Serdes.String()).withValueSerde(ProcessorSerdes.json(RunInput.class)));

    builder.addStateStore(jsonStore(RunValueProcessor.STATE_STORE, RunState.class));
    builder.addStateStore(jsonStore(RunValueProcessor.SAMPLE_STORE, Sample.class));
    builder.addStateStore(jsonStore(SteadyProcessor.WINDOW_STORE, SteadyDetector.class));
    builder.addStateStore(jsonStore(SteadyProcessor.PLAN_STORE, RunEvent.class));
    builder.addStateStore(jsonStore(SteadyProcessor.INTERIM_STORE, InterimSeconds.class));
    builder.addStateStore(jsonStore(SteadyProcessor.PRECISION_STORE, PrecisionJudge.class));

    builder.addStateStore(jsonStore(CpuUseProcessor.STATE_STORE, CpuRunState.class));
    builder.addStateStore(jsonStore(CpuUseProcessor.SAMPLE_STORE, Sample.class));

    byRun.process(CpuUseProcessor::new, Named.as("cpu-use"), CpuUseProcessor.STATE_STORE, CpuUseProcessor.SAMPLE_STORE)
        .to(topics.cpu(), Produced.with(Serdes.String(), ProcessorSerdes.json(CpuUse.class)).withName("cpu-out"));
    byRun.process(() -> new SteadyProcessor(steadyDefaults, steadyPerPlan), Named.as("steady-detector"),
            SteadyProcessor.WINDOW_STORE, SteadyProcessor.PLAN_STORE, SteadyProcessor.INTERIM_STORE,
            SteadyProcessor.PRECISION_STORE)
        .to(topics.steady(), Produced.with(Serdes.String(), ProcessorSerdes.json(SteadyEvent.class)).withName("steady-out"));
    return byRun.process(RunValueProcessor::new, Named.as("run-values"),
        RunValueProcessor.STATE_STORE, RunValueProcessor.SAMPLE_STORE);
  }

  /** A persistent store of JSON values by String key, as each run processor keeps its state. */
  private static <V> StoreBuilder<KeyValueStore<String, V>> jsonStore(String name, Class<V> type) {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(),
        ProcessorSerdes.json(type));
  }

  private List<Either> readRunEvent(String key, byte[] raw, Origin origin) {
    String problem = InputLimits.keyProblem(key);
    if (problem == null && raw != null && raw.length > MAX_RUN_EVENT_BYTES) {
      problem = "run event of " + raw.length + " bytes (at most " + MAX_RUN_EVENT_BYTES + ")";
    }
    if (problem != null) {
      return List.of(dead(origin, key, raw, problem));
    }
    try {
      RunEvent e = Json.read(raw, RunEvent.class);
      if (e == null || e.run() == null || e.phase() == null || e.test() == null) {
        return List.of(dead(origin, key, raw, "run event lacks one of run, test, phase"));
      }
      String nameProblem = InputLimits.nameProblem("run", e.run(), "plan", e.plan(), "test", e.test(),
          "type", e.type(), "sut", e.sut(), "iface", e.iface(), "execution", e.execution());
      if (nameProblem != null) {
        return List.of(dead(origin, key, raw, "run event with " + nameProblem));
      }
      return List.of(new Either(e, null));
    } catch (IOException | RuntimeException ex) {
      String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage().lines().findFirst().orElse("");
      return List.of(dead(origin, key, raw, "not a run event: " + msg));
    }
  }

  private static Either dead(Origin origin, String key, byte[] raw, String reason) {
    return new Either(null, origin.deadLetter(key, raw, reason));
  }

  record Either(RunEvent event, DeadLetter deadLetter) {}
}
