package io.netpulse.processor.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.SteadyEvent;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Per run and series (host/iface/metric): judges each new per-second sample's window and emits a
 * {@link SteadyEvent} keyed by run when the series has just settled. The thresholds are the plan's
 * (learnt from the run's lifecycle events) or the defaults.
 */
final class SteadyProcessor implements Processor<String, RunInput, String, SteadyEvent> {

  static final String WINDOW_STORE = "steady-windows";
  /** Per run, its latest lifecycle event: the plan (for per-plan thresholds) and the run's own thresholds. */
  static final String PLAN_STORE = "steady-runs";
  private static final char SEP = '\u0001';

  private final SteadyConfig defaults;
  private final Map<String, SteadyConfig> perPlan;
  private ProcessorContext<String, SteadyEvent> context;
  private KeyValueStore<String, SteadyDetector> windows;
  private KeyValueStore<String, RunEvent> plans;

  SteadyProcessor(SteadyConfig defaults, Map<String, SteadyConfig> perPlan) {
    this.defaults = defaults;
    this.perPlan = Map.copyOf(perPlan);
  }

  @Override
  public void init(ProcessorContext<String, SteadyEvent> context) {
    this.context = context;
    this.windows = context.getStateStore(WINDOW_STORE);
    this.plans = context.getStateStore(PLAN_STORE);
    context.schedule(Duration.ofMinutes(1), PunctuationType.STREAM_TIME, this::evict);
  }

  @Override
  public void process(Record<String, RunInput> record) {
    String run = record.key();
    RunInput in = record.value();
    if (run == null || in == null) {
      return;
    }
    RunEvent lifecycle = in.lifecycle();
    if (lifecycle != null) {
      if (lifecycle.plan() != null || lifecycle.steady() != null) {
        plans.put(run, lifecycle);
      }
      return;
    }
    Sample s = in.sample();
    if (s == null || s.summary() || !Double.isFinite(s.value())) {
      return;
    }
    RunEvent latest = plans.get(run);
    if (beforeTraffic(latest, s.ts())) {
      return;
    }
    SteadyConfig config = config(latest);
    String key = run + SEP + s.seriesKey();
    SteadyDetector detector = windows.get(key);
    if (detector == null) {
      detector = new SteadyDetector();
    }
    SteadyDetector.Verdict settled = detector.add(s.ts(), s.value(), s.metric().equals(config.risingMetric()), config);
    windows.put(key, detector);
    if (settled != null) {
      context.forward(new Record<>(run, new SteadyEvent(SteadyEvent.SCHEMA, run, s.host(), s.iface(), s.metric(),
          settled.mean(), s.unit(), settled.windowMs(), settled.spread(), settled.ts()), record.timestamp()));
    }
  }

  /**
   * Samples of a run taken before its traffic started (the samplers start first) must not make it
   * look settled: an idle interface or a flat connection count is no steady state of the test.
   */
  private static boolean beforeTraffic(RunEvent latest, long sampleTs) {
    if (latest == null || latest.phase() == null) {
      return false; // a run without lifecycle (replays, fleet monitoring): judge everything
    }
    return switch (latest.phase()) {
      case PLANNED, PREPARING -> true;
      case WARMUP -> sampleTs < latest.ts();
      default -> false;
    };
  }

  /** The run's own thresholds when its lifecycle carries them, else its plan's, else the defaults. */
  private SteadyConfig config(RunEvent lifecycle) {
    if (lifecycle == null) {
      return defaults;
    }
    RunEvent.Steady s = lifecycle.steady();
    if (s != null) {
      try {
        return new SteadyConfig(Duration.ofMillis(s.windowMs()), s.maxSpread(), s.maxRise(), defaults.risingMetric());
      } catch (IllegalArgumentException bad) {
        return defaults; // an unusable setting from a producer must not stop the detector
      }
    }
    return lifecycle.plan() == null ? defaults : perPlan.getOrDefault(lifecycle.plan(), defaults);
  }

  private void evict(long streamTime) {
    long horizon = streamTime - RunValueProcessor.RETENTION.toMillis();
    StoreEviction.deleteWhere(windows, d -> d.lastSeen < horizon);
    // a run's thresholds are forgotten as long after its last lifecycle event: an always-on processor sees
    // runs come and go forever
    StoreEviction.deleteWhere(plans, e -> e.ts() < horizon);
  }
}
