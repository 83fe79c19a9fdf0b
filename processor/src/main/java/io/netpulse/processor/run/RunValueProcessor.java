package io.netpulse.processor.run;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.Metric;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import io.netpulse.processor.topology.ToolFigure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Per run: follows the lifecycle, keeps the samples that can make a value and the tool figures, and
 * when a repetition's measuring phase closes (the phase after MEASURING) emits its {@link RunValue}s
 * keyed plan/execution/test/metric. A sample or figure that arrives after the close (Kafka orders records within
 * a topic, not across topics) emits the value again, corrected; downstream keeps the latest per
 * repetition. A repetition that FAILED while measuring gives no value. A tool figure that never came (the
 * launcher stopped the tool early on steady: netperf sums, iperf's sender rate) is made from the instances'
 * streamed interim figures instead.
 */
final class RunValueProcessor extends RunInputProcessor<RunValue> {

  static final String STATE_STORE = "run-state";
  static final String SAMPLE_STORE = "run-samples";
  /**
   * Runs are forgotten this long (stream time) after their last input, and with them their samples; samples older
   * than this outside every window of their run are forgotten before (StoreEviction.deleteSamples).
   */
  static final Duration RETENTION = Duration.ofMinutes(30);
  private static final char SEP = '\u0001';
  private static final Set<String> SAMPLED_METRICS = Catalog.tests().stream()
      .flatMap(t -> Catalog.metricsOf(t).stream())
      .filter(Metric::fromSamples)
      .map(Metric::sourceMetric)
      .collect(Collectors.toUnmodifiableSet());
  /**
   * Interim lines around the window that still shape it: the one before gives the first piece's start, the one
   * after covers its end; as far as a slowed-down netperf stretches its interval (see {@link InterimSeconds}).
   */
  static final long INTERIM_MARGIN_MS = InterimSeconds.STALL_MS;

  private KeyValueStore<String, RunState> runs;
  private KeyValueStore<String, Sample> samples;

  @Override
  public void init(ProcessorContext<String, RunValue> context) {
    super.init(context);
    this.runs = context.getStateStore(STATE_STORE);
    this.samples = context.getStateStore(SAMPLE_STORE);
  }

  @Override
  void process(String run, RunInput in, long recordTs) {
    if (in.lifecycle() != null) {
      lifecycle(run, in.lifecycle(), recordTs);
    } else if (in.sample() != null) {
      sample(run, in.sample(), recordTs);
    } else if (in.figure() != null) {
      figure(run, in.figure(), recordTs);
    }
  }

  private void lifecycle(String run, RunEvent e, long now) {
    if (e.test() == null) {
      return;
    }
    RunState state = state(run, now);
    RepetitionState rep = state.repetition(e.test(), e.repetition());
    if (e.plan() != null) {
      rep.plan = e.plan();
    }
    if (e.type() != null) {
      rep.type = e.type();
    }
    if (e.sut() != null) {
      rep.sut = e.sut();
    }
    if (e.iface() != null) {
      rep.iface = e.iface();
    }
    if (e.execution() != null) {
      rep.execution = e.execution();
    }
    if (e.labels() != null) {
      rep.labels = e.labels();
    }
    if (e.hostFacts() != null) {
      rep.hostFacts = e.hostFacts();
    }
    if (e.repetitions() != null) {
      rep.repetitionsPlanned = e.repetitions();
    }
    if (e.planned() != null && e.planned().clients() != null) {
      rep.clients = e.planned().clients();
    }
    if (e.phase() == RunEvent.Phase.STOPPING && e.stopReason() != null) {
      rep.stopReason = e.stopReason();
    }
    if (e.phase() == RunEvent.Phase.STOPPING && e.stopReasons() != null) {
      rep.stopReasons = new java.util.HashMap<>(e.stopReasons());
    }
    boolean closes = false;
    boolean interrupted = e.phase() == RunEvent.Phase.FAILED && RunEvent.INTERRUPTED.equals(e.stopReason());
    if (e.phase() == RunEvent.Phase.MEASURING) {
      // a later MEASURING of an open window moves its start: a precision stop judged from after a level shift
      if (rep.start == 0 || rep.end == 0 && e.ts() > rep.start) {
        rep.start = e.ts();
      }
    } else if (e.phase() == RunEvent.Phase.FAILED && !rep.closed()) {
      rep.failed = true; // failed before its window closed: this repetition is not counted
      rep.end = e.ts();
      endOfTest(run, rep, e.ts(), e.stopReason());
    } else if (interrupted) {
      // interrupted after its window closed (its value counts): the test ends here all the same
      endOfTest(run, rep, e.ts(), e.stopReason());
    } else if (rep.start > 0 && rep.end == 0) {
      rep.end = e.ts();
      closes = true;
    }
    runs.put(run, state);
    if (closes) {
      emit(run, rep, Catalog.metricsOfRun(rep.rulesKey(), rep.iface));
    }
  }

  /**
   * The test's last planned repetition failed, or the execution was interrupted ({@code stopReason}): no value will
   * come after it, so the results of the execution are final as they stand; a marker per metric says so (results
   * without any value ignore it).
   */
  private void endOfTest(String run, RepetitionState rep, long ts, String stopReason) {
    boolean interrupted = RunEvent.INTERRUPTED.equals(stopReason);
    if (rep.plan == null || !interrupted && (rep.repetitionsPlanned == null
        || rep.repetition < rep.repetitionsPlanned)) {
      return;
    }
    for (Metric rule : Catalog.metricsOfRun(rep.rulesKey(), rep.iface)) {
      RunValue marker = new RunValue(RunValue.SCHEMA, run, rep.plan, rep.test, rep.repetition, rule.metric(), 0,
          rule.unit(), null, rep.iface, 0, rep.start, ts, rep.execution, rep.labels, rep.hostFacts,
          rep.repetitionsPlanned, true, interrupted ? stopReason : null, null);
      forward(new Record<>(marker.resultKey(), marker, ts));
    }
  }

  private void sample(String run, Sample s, long now) {
    boolean interim = Catalog.figureOfInterim(s.metric()) != null;
    if (s.summary() || !Double.isFinite(s.value()) || !(SAMPLED_METRICS.contains(s.metric())
        || interim && s.instance() != null)) { // interim lines without instance are a finished tool's: it has figures
      return;
    }
    samples.put(sampleKey(run, s.ts(), interim ? s.seriesKey() + "#" + s.instance() : s.seriesKey()), s);
    RunState state = state(run, now);
    runs.put(run, state);
    for (RepetitionState rep : state.repetitions.values()) {
      if (!rep.counts()) {
        continue;
      }
      if (!interim && rep.inWindow(s.ts())) { // a late sample: correct the value
        emit(run, rep, Catalog.metricsOfRun(rep.rulesKey(), rep.iface).stream()
            .filter(r -> r.fromSamples() && r.sourceMetric().equals(s.metric())).toList());
      } else if (interim && s.ts() >= rep.start && s.ts() < rep.end + INTERIM_MARGIN_MS) {
        emit(run, rep, Catalog.metricsOfRun(rep.rulesKey(), rep.iface).stream()
            .filter(r -> s.metric().equals(r.interimMetric())).toList());
      }
    }
  }

  private void figure(String run, ToolFigure f, long now) {
    if (f.test() == null || f.sample() == null) {
      return;
    }
    RunState state = state(run, now);
    RepetitionState rep = state.repetition(f.test(), f.repetition());
    String instance = f.instance() == null ? f.sample().host() : f.instance();
    rep.figures.computeIfAbsent(f.sample().metric(), k -> new java.util.HashMap<>()).put(instance, f.sample().value());
    if (f.series() != null) {
      rep.series.computeIfAbsent(f.sample().metric(), k -> new java.util.HashMap<>()).put(instance, f.series());
    }
    runs.put(run, state);
    if (rep.counts()) {
      emit(run, rep, Catalog.metricsOfRun(rep.rulesKey(), rep.iface).stream()
          .filter(r -> !r.fromSamples() && r.sourceMetric().equals(f.sample().metric())).toList());
    }
  }

  private void emit(String run, RepetitionState rep, List<Metric> rules) {
    if (!rep.counts() || rules.isEmpty()) {
      return;
    }
    boolean stored = rules.stream().anyMatch(r -> r.fromSamples() || r.interim() != null);
    List<Sample> around = stored ? windowSamples(run, rep) : List.of();
    List<Sample> window = around.stream().filter(s -> rep.inWindow(s.ts())).toList();
    for (Metric rule : rules) {
      String interim = rule.interimMetric();
      RunValueCalculator.value(run, rep, rule, RunValueCalculator.of(window, rule.sourceMetric()),
              interim == null ? List.of() : RunValueCalculator.of(around, interim))
          .ifPresent(v -> forward(new Record<>(v.resultKey(), v, rep.end)));
    }
  }

  /** The run's stored samples of the window and {@link #INTERIM_MARGIN_MS} either side of it. */
  private List<Sample> windowSamples(String run, RepetitionState rep) {
    List<Sample> out = new ArrayList<>();
    try (KeyValueIterator<String, Sample> it = samples.range(sampleKey(run, rep.start - INTERIM_MARGIN_MS, ""),
        sampleKey(run, rep.end + INTERIM_MARGIN_MS, ""))) {
      while (it.hasNext()) {
        out.add(it.next().value);
      }
    }
    return out;
  }

  private RunState state(String run, long now) {
    RunState state = runs.get(run);
    if (state == null) {
      state = new RunState();
    }
    state.lastSeen = Math.max(state.lastSeen, now);
    return state;
  }

  /** Keys sort by run, then time: a repetition's window is one range scan. */
  static String sampleKey(String run, long ts, String series) {
    return run + SEP + String.format("%013d", Math.max(0, ts)) + SEP + series;
  }

  @Override
  void evict(long streamTime) {
    long horizon = streamTime - RETENTION.toMillis();
    StoreEviction.deleteWhere(runs, r -> r.lastSeen < horizon);
    StoreEviction.deleteSamples(samples, horizon, INTERIM_MARGIN_MS, run -> {
      RunState state = runs.get(run);
      return state == null ? null : state.repetitions.values();
    });
  }
}
