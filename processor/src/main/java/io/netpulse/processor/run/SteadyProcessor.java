package io.netpulse.processor.run;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.Metric;

import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.tools.proc.ProcStatParser;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Per run and series (host/iface/metric): judges each new per-second sample's window and emits a
 * {@link SteadyEvent} keyed by run when the series has just settled. The thresholds are the plan's
 * (learnt from the run's lifecycle events) or the defaults. Interim figures of tool instances (netperf
 * {@code -D 1}, streamed with their instance) are judged as their per-second sum over the run's instances
 * ({@link InterimSeconds}), reported under the summed figure's name (interim_trans_per_s → trans_per_s) with no
 * host (the instances may run on several), and reported again each new window while they stay settled: the
 * first settled window may begin before the last client was up, which the launcher does not accept. A run whose
 * thresholds say criterion precision has each series but the rising metric judged instead by a {@link PrecisionJudge}
 * on all its samples since the repetition's MEASURING began (less those it forgets after a level shift), and reported
 * each time its mean becomes precise.
 */
final class SteadyProcessor extends RunInputProcessor<SteadyEvent> {

  static final String WINDOW_STORE = "steady-windows";
  /**
   * Per run, its latest lifecycle event: the plan (for per-plan thresholds) and the run's own thresholds; and for a
   * run judged by the precision criterion, under the run's key with {@link #MEASURING_KEY}, its first MEASURING event.
   */
  static final String PLAN_STORE = "steady-runs";
  /** Per run and interim metric, the instances' pieces not yet summed into seconds. */
  static final String INTERIM_STORE = "steady-interims";
  /** Per run and series, its samples since MEASURING, for runs judged by the precision criterion. */
  static final String PRECISION_STORE = "steady-precision";
  private static final char SEP = '\u0001';
  /**
   * Key suffix in {@link #PLAN_STORE} of a run's first MEASURING event: the run's own key keeps only its latest event,
   * and MEASURING is followed by STOPPING (and by any events a launcher may add) while late samples still come.
   */
  private static final String MEASURING_KEY = SEP + "measuring";

  private final SteadyConfig defaults;
  private final Map<String, SteadyConfig> perPlan;
  private KeyValueStore<String, SteadyDetector> windows;
  private KeyValueStore<String, RunEvent> plans;
  private KeyValueStore<String, InterimSeconds> interims;
  private KeyValueStore<String, PrecisionJudge> judges;

  SteadyProcessor(SteadyConfig defaults, Map<String, SteadyConfig> perPlan) {
    this.defaults = defaults;
    this.perPlan = Map.copyOf(perPlan);
  }

  @Override
  public void init(ProcessorContext<String, SteadyEvent> context) {
    super.init(context);
    this.windows = context.getStateStore(WINDOW_STORE);
    this.plans = context.getStateStore(PLAN_STORE);
    this.interims = context.getStateStore(INTERIM_STORE);
    this.judges = context.getStateStore(PRECISION_STORE);
  }

  @Override
  void process(String run, RunInput in, long recordTs) {
    RunEvent lifecycle = in.lifecycle();
    if (lifecycle != null) {
      if (lifecycle.plan() != null || lifecycle.steady() != null) {
        plans.put(run, lifecycle);
      }
      // the first: a later MEASURING is the launcher narrowing the window to what the judge already judged
      if (lifecycle.phase() == RunEvent.Phase.MEASURING && config(plans.get(run)).byPrecision()
          && plans.get(run + MEASURING_KEY) == null) {
        plans.put(run + MEASURING_KEY, lifecycle);
      }
      return;
    }
    Sample s = in.sample();
    // CPU use is a condition of the test, not its metric: judging it would only fill the store and the topic
    if (s == null || s.summary() || !Double.isFinite(s.value()) || ProcStatParser.isCpuMetric(s.metric())) {
      return;
    }
    RunEvent latest = plans.get(run);
    String summed = Catalog.figureOfInterim(s.metric());
    if (summed != null) {
      if (s.instance() != null) { // interim lines of a finished tool's output (no instance) come too late to matter
        interim(run, s, summed, latest, recordTs);
      }
      return;
    }
    if (beforeTraffic(latest, s.ts())) {
      return;
    }
    judge(run, s.seriesKey(), s.ts(), s.value(), s.host(), s.iface(), s.metric(), s.unit(), latest, recordTs, false);
  }

  /** Adds an instance's interim line and judges the per-second sums it completes. */
  private void interim(String run, Sample s, String summed, RunEvent latest, long recordTs) {
    String key = run + SEP + s.metric();
    InterimSeconds seconds = interims.get(key);
    if (seconds == null) {
      seconds = new InterimSeconds();
    }
    // a sum needs every client's share of a second; a figure each instance prints alone (qperf's loop) does not wait
    Integer clients = latest == null || latest.planned() == null || !Catalog.interimIsSummed(s.metric()) ? null
        : latest.planned().clients();
    List<InterimSeconds.Second> done = seconds.add(InterimRates.instanceOf(s), s.ts(), s.value(),
        clients == null ? 0 : clients);
    interims.put(key, seconds);
    for (InterimSeconds.Second second : done) {
      if (!beforeTraffic(latest, second.start())) { // a second is judged by its start, like a sar row's
        judge(run, "-/-/" + summed, second.start() + 1_000, second.sum(), null, null, summed, s.unit(), latest, recordTs,
            true);
      }
    }
  }

  /** @param renew report a series that stays settled again each new window (see {@link SteadyDetector#add}) */
  private void judge(String run, String series, long ts, double value, String host, String iface, String metric,
      String unit, RunEvent latest, long recordTs, boolean renew) {
    SteadyConfig config = config(latest);
    String key = run + SEP + series;
    if (config.byPrecision() && !metric.equals(config.risingMetric())) { // a connection count's value is its maximum
      if (!underTest(latest, host, iface)) {
        return;
      }
      judgePrecision(run, key, ts, value, host, iface, metric, unit, config, recordTs);
      return;
    }
    SteadyDetector detector = windows.get(key);
    if (detector == null) {
      detector = new SteadyDetector();
    }
    SteadyDetector.Verdict settled = detector.add(ts, value, metric.equals(config.risingMetric()), config, renew);
    windows.put(key, detector);
    if (settled != null) {
      forward(new Record<>(run, inFigureUnit(new SteadyEvent(SteadyEvent.SCHEMA, run, host, iface, metric,
          settled.mean(), unit, settled.windowMs(), settled.spread(), settled.ts())), recordTs));
    }
  }

  /**
   * Whether a series is one a precision stop can wait on: the run's SUT and its interface when the lifecycle names
   * them (a sum over instances has no host and always is). The judge keeps every sample since MEASURING and judges
   * them again each second; judging the peers' and the other interfaces' series too cost the shared pipelines of
   * the whole suite time for reports nobody waits for.
   */
  private static boolean underTest(RunEvent latest, String host, String iface) {
    if (host == null || latest == null) {
      return true;
    }
    return (latest.sut() == null || latest.sut().equals(host))
        && (latest.iface() == null || iface == null || latest.iface().equals(iface));
  }

  /**
   * The precision criterion: a sample counts from MEASURING on, by its second's start as the run's value counts it
   * (a sar row stamped W covers (W − 1 s, W]); none counts while the run's MEASURING is unknown.
   */
  private void judgePrecision(String run, String key, long ts, double value, String host, String iface, String metric,
      String unit, SteadyConfig config, long recordTs) {
    RunEvent measuring = plans.get(run + MEASURING_KEY);
    if (measuring == null || ts - PrecisionJudge.SAMPLE_MS < measuring.ts()) {
      return;
    }
    PrecisionJudge judge = judges.get(key);
    if (judge == null) {
      judge = new PrecisionJudge();
    }
    PrecisionJudge.Verdict precise = judge.add(ts, value, config.precision(), config.minMeasure().toMillis());
    judges.put(key, judge);
    if (precise != null) {
      // the window that holds exactly the judged samples, so that the run's value and its precision are the verdict's:
      // a sar row stamped W counts only in a window reaching W + 1 s (RunValueCalculator.wholeSeconds); a summed
      // second (no host: a sum over instances) is exact, and ends at its stamp
      long endTs = host == null ? precise.ts() : precise.ts() + PrecisionJudge.SAMPLE_MS;
      forward(new Record<>(run, inFigureUnit(new SteadyEvent(SteadyEvent.SCHEMA, run, host, iface, metric,
          precise.mean(), unit, precise.spanMs(), precise.spread(), precise.ts(), RunEvent.Steady.PRECISION,
          precise.precision(), precise.startTs(), endTs)), recordTs));
    }
  }

  /**
   * A report judged on a figure's interim lines that are rates of a time (qperf's loop: messages/s for tcp_lat_us) in
   * the figure's own unit, so that it reads as the value the run will report; the precision is relative, the same to
   * first order. Others as they are.
   */
  private static SteadyEvent inFigureUnit(SteadyEvent e) {
    Metric figure = Catalog.reciprocalFigure(e.metric());
    if (figure == null || !(e.value() > 0)) {
      return e;
    }
    return new SteadyEvent(e.schema(), e.run(), e.host(), e.iface(), e.metric(), figure.figureOfInterimRate(e.value()),
        figure.unit(), e.windowMs(), e.spread(), e.ts(), e.criterion(), e.precision(), e.startTs(), e.endTs());
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
        boolean precision = RunEvent.Steady.PRECISION.equals(s.criterion());
        return new SteadyConfig(Duration.ofMillis(s.windowMs()), s.maxSpread(), s.maxRise(), defaults.risingMetric(),
            s.criterion(), precision && s.precision() != null ? s.precision() : 0,
            Duration.ofMillis(precision && s.minMeasureMs() != null ? s.minMeasureMs() : 0));
      } catch (IllegalArgumentException bad) {
        return defaults; // an unusable setting from a producer must not stop the detector
      }
    }
    return lifecycle.plan() == null ? defaults : perPlan.getOrDefault(lifecycle.plan(), defaults);
  }

  @Override
  void evict(long streamTime) {
    long horizon = streamTime - RunValueProcessor.RETENTION.toMillis();
    StoreEviction.deleteWhere(windows, d -> d.lastSeen < horizon);
    StoreEviction.deleteWhere(interims, i -> i.newest < horizon);
    StoreEviction.deleteWhere(judges, j -> j.newestTs < horizon);
    // a run's thresholds and MEASURING are forgotten as long after its last lifecycle event (an always-on processor
    // sees runs come and go forever), but not while a series of it is still judged: a measuring longer than the
    // retention would otherwise lose its thresholds and its start, and stop being judged mid-test
    Set<String> live = new HashSet<>();
    for (KeyValueStore<String, ?> store : List.of(windows, interims, judges)) {
      try (KeyValueIterator<String, ?> it = store.all()) {
        it.forEachRemaining(kv -> live.add(StoreEviction.runOf(kv.key)));
      }
    }
    StoreEviction.deleteWhere(plans, (key, e) -> e.ts() < horizon && !live.contains(StoreEviction.runOf(key)));
  }

}
