package io.netpulse.processor.run;

import io.netpulse.common.Topics;
import io.netpulse.common.event.HostInfo;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunValue;
import io.netpulse.processor.topology.ProcessorSerdes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * Run values keyed plan/execution/test/metric → {@code results}: per repetition the latest value (so a value
 * corrected by a late sample, or replayed, replaces rather than adds), with mean, stddev and 95 % CI, each
 * execution under its own key so that running a plan again adds results rather than replacing them. The newest
 * execution's result per plan/test/metric also goes to the compacted {@code results-latest}.
 */
public final class ResultsTopology {

  public static final String STORE = "results";
  public static final String LATEST_STORE = "results-latest";

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
    // a test whose repetitions all failed has only end-of-test markers: no result to send
    KStream<String, ResultEvent> changes = results.toStream(Named.as("results-changes"))
        .filter((key, r) -> r == null || r.n() > 0, Named.as("results-with-values"));
    changes.to(topics.results(), Produced.with(Serdes.String(), ProcessorSerdes.json(ResultEvent.class)).withName("results-out"));
    // a late replay of an older execution must not take the newest's place: the newer execution wins
    changes.filter((key, r) -> r != null, Named.as("results-present"))
        .groupBy((key, r) -> r.latestKey(), Grouped.with("results-by-plan", Serdes.String(),
            ProcessorSerdes.json(ResultEvent.class)))
        .reduce((current, r) -> r.supersedes(current) ? r : current, Named.as("newest-execution"),
            Materialized.<String, ResultEvent, KeyValueStore<Bytes, byte[]>>as(LATEST_STORE)
                .withKeySerde(Serdes.String()).withValueSerde(ProcessorSerdes.json(ResultEvent.class)))
        .toStream(Named.as("results-latest-changes"))
        .to(topics.resultsLatest(), Produced.with(Serdes.String(), ProcessorSerdes.json(ResultEvent.class))
            .withName("results-latest-out"));
    return results;
  }

  /** The values so far of one execution's test and metric; mutable, lives only in the store. */
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
    public Map<String, String> labels;
    public List<HostInfo> hostFacts;
    public Integer repetitionsPlanned;

    /** The test's last planned repetition failed, or its execution was interrupted: final with the values there are. */
    public boolean ended;
    /** Why it ended early ({@code interrupted}), from the marker; null otherwise. */
    public String stopReason;
    /** Per repetition with a value: why its measuring ended and its value's precision. */
    public TreeMap<Integer, ResultEvent.Stop> stops = new TreeMap<>();

    Accumulated add(RunValue v) {
      if (v.marker()) {
        ended = true; // with no value yet it stays without a result (filtered out downstream)
        if (v.stopReason() != null) {
          stopReason = v.stopReason();
        }
        return this;
      }
      plan = v.plan();
      test = v.test();
      metric = v.metric();
      unit = v.unit();
      execution = v.execution();
      values.put(v.repetition(), v.value());
      if (v.stopReason() != null || v.precision() != null) {
        stops.put(v.repetition(), new ResultEvent.Stop(v.stopReason(), v.precision()));
      }
      if (v.host() != null) {
        hosts.add(v.host());
      }
      runs.add(v.run());
      ts = Math.max(ts, v.windowEnd());
      if (v.labels() != null) {
        labels = v.labels();
      }
      if (v.hostFacts() != null) {
        hostFacts = v.hostFacts();
      }
      if (v.repetitionsPlanned() != null) {
        repetitionsPlanned = v.repetitionsPlanned();
      }
      return this;
    }

    /**
     * Final once every planned repetition has a value, or the last planned one has (an earlier one failed and
     * will not come), or the last planned one failed, or the execution was interrupted; unknown plans (older
     * producers) never are, unless interrupted.
     */
    boolean isFinal() {
      return !values.isEmpty() && (ended || repetitionsPlanned != null
          && (values.size() >= repetitionsPlanned || values.lastKey() >= repetitionsPlanned));
    }

    /** Final with fewer values than planned: the stop reason says why (an interrupt after the last one says nothing). */
    private boolean stoppedEarly() {
      return isFinal() && (repetitionsPlanned == null || values.size() < repetitionsPlanned);
    }

    ResultEvent toResult() {
      if (values.isEmpty()) { // only end-of-test markers: n = 0, never sent
        return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, unit, new TreeMap<>(), 0, 0, null, null,
            List.of(), List.of(), ts, execution, labels, hostFacts, false, repetitionsPlanned, 0, stopReason, null);
      }
      ThreeRunStats stats = ThreeRunStats.of(values.values());
      return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, unit, new TreeMap<>(values), stats.n(),
          stats.mean(), stats.stddev(), stats.ci95(), new ArrayList<>(hosts), new ArrayList<>(runs), ts, execution,
          labels, hostFacts, isFinal(), repetitionsPlanned, values.size(), stoppedEarly() ? stopReason : null, stops);
    }
  }
}
