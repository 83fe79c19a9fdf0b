package io.netpulse.processor.run;

import io.netpulse.common.Topics;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.topology.ProcessorSerdes;
import java.util.ArrayList;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Run values keyed plan/test/metric → {@code results}: per repetition the latest value (so a value
 * corrected by a late sample, or replayed, replaces rather than adds), with mean, stddev and 95 % CI.
 */
public final class ResultsTopology {

  public static final String STORE = "results";

  private final Topics topics;

  public ResultsTopology(Topics topics) {
    this.topics = topics;
  }

  /** Standalone, for tests: reads run values from {@code runValuesTopic}. */
  public Topology build(String runValuesTopic) {
    StreamsBuilder builder = new StreamsBuilder();
    build(builder.stream(runValuesTopic, Consumed.with(Serdes.String(), ProcessorSerdes.json(RunValue.class))));
    return builder.build();
  }

  public KTable<String, ResultEvent> build(KStream<String, RunValue> runValues) {
    KTable<String, Accumulated> table = runValues
        .groupByKey(Grouped.with("run-values", Serdes.String(), ProcessorSerdes.json(RunValue.class)))
        .aggregate(Accumulated::new, (key, v, acc) -> acc.add(v), Named.as("three-run-stats"),
            Materialized.<String, Accumulated, KeyValueStore<Bytes, byte[]>>as(STORE)
                .withKeySerde(Serdes.String()).withValueSerde(ProcessorSerdes.json(Accumulated.class)));
    KTable<String, ResultEvent> results = table.mapValues(Accumulated::toResult, Named.as("results-events"));
    results.toStream(Named.as("results-changes"))
        .to(topics.results(), Produced.with(Serdes.String(), ProcessorSerdes.json(ResultEvent.class)).withName("results-out"));
    return results;
  }

  /** The values so far of one plan/test/metric; mutable, lives only in the store. */
  public static final class Accumulated {
    public String plan;
    public String test;
    public String metric;
    public String unit;
    public TreeMap<Integer, Double> values = new TreeMap<>();
    public TreeSet<String> hosts = new TreeSet<>();
    public TreeSet<String> runs = new TreeSet<>();
    public long ts;
    public String execution;

    /**
     * A value of a newer execution of the plan starts the statistics afresh (a plan run again replaces
     * its results rather than mixing with them); one of an older execution (a late replay) is ignored.
     * Execution ids sort by time (plan-yyyyMMddTHHmmssZ).
     */
    Accumulated add(RunValue v) {
      if (v.execution() != null) {
        if (execution != null && v.execution().compareTo(execution) < 0) {
          return this;
        }
        if (!v.execution().equals(execution)) {
          values.clear();
          hosts.clear();
          runs.clear();
          ts = 0;
          execution = v.execution();
        }
      }
      plan = v.plan();
      test = v.test();
      metric = v.metric();
      unit = v.unit();
      values.put(v.repetition(), v.value());
      if (v.host() != null) {
        hosts.add(v.host());
      }
      runs.add(v.run());
      ts = Math.max(ts, v.windowEnd());
      return this;
    }

    ResultEvent toResult() {
      ThreeRunStats stats = ThreeRunStats.of(values.values());
      return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, unit, new TreeMap<>(values), stats.n(),
          stats.mean(), stats.stddev(), stats.ci95(), new ArrayList<>(hosts), new ArrayList<>(runs), ts, execution);
    }
  }
}
