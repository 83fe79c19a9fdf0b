package io.netpulse.common.event;

/**
 * Lifecycle of one repetition of one test of a plan, keyed by run id on {@code runs}.
 *
 * @param test  the test's name, unique within its plan: the results key is plan/execution/test/metric and tool
 *              output names its test the same way
 * @param type  the plan's test type (e.g. {@code rx_bandwidth}, {@code latency}) that picks how results
 *              are made; null from older producers, which used the test name as the type
 * @param sut   the host under test, named as the collector labels its lines (the plan's host name);
 *              null when unknown
 * @param iface the SUT's interface whose sar rows give the result; null when unknown or not sar-based
 * @param execution one execution of the plan (its runs share it): results are kept per execution, so running a
 *              plan again adds results instead of mixing its repetitions with the earlier ones; null from older
 *              producers
 * @param steady the plan's steady-state thresholds for this run; null: the processor's defaults
 * @param planned how long the repetition is planned to take, for progress displays; null from older producers
 * @param climb   for a climb of concurrent connections, what ended it and whose limit that was; on the DONE (or
 *                FAILED) event of such a repetition, null otherwise and from older producers
 * @param sharedWithNetpulse the repetition's hosts that are the machine running netpulse (the launcher, and the
 *                pipeline it runs in-process), found by their kernel's boot id: its load is on their CPUs and the
 *                figures may be lower for it; empty when none is, null when unknown (older producers)
 * @param labels  the plan's {@code labels:} (instance type, region, image, ...), on every event; empty when the plan
 *                has none, null from older producers
 * @param hostFacts what preflight found on the test's hosts (kernel, CPU, NIC, offloads, tool versions), on the
 *                PREPARING event (null on the others and from older producers)
 * @param repetitions how many repetitions the test is planned to have: the result of the last one is final; null
 *                from older producers
 * @param stopReason why the execution stopped before the test's planned repetitions ran, on the FAILED event that
 *                says so: {@value #INTERRUPTED} (SIGINT/SIGTERM, e.g. Ctrl-C; the repetition under way, or the next
 *                one when none was). The processor then makes the test's result final as it stands. On the
 *                STOPPING event, why the measuring ended: {@value #STOP_PRECISE} (the mean was known to the plan's
 *                precision), {@value #STOP_SETTLED} (the spread rule, or a connection count's rise, settled) or
 *                {@value #STOP_DURATION} (the planned duration ran out: a fixed stop, or a steady one that never
 *                settled) or {@value #STOP_CLIENT_ENDED} (a client ended too soon: the window ends where its load
 *                did). Null otherwise and from older producers
 * @param stopReasons on the STOPPING event of a repetition whose metrics' measuring ended for different reasons, each
 *                metric's (result metric → a {@code stopReason} value): a latency test's qperf stages each stop when
 *                their mean is precise, while ping, which prints its figure at its end, runs its count. Metrics it
 *                does not name take {@code stopReason}. Null otherwise and from older producers
 */
public record RunEvent(
    int schema, String run, String plan, String test, int repetition, Phase phase, long ts, String reason,
    String type, String sut, String iface, String execution, Steady steady, Planned planned, Climb climb,
    java.util.List<String> sharedWithNetpulse, java.util.Map<String, String> labels,
    java.util.List<HostInfo> hostFacts, Integer repetitions, String stopReason,
    java.util.Map<String, String> stopReasons) {

  /**
   * 2: labels, hostFacts and repetitions (issue 14), then stopReason and steady's criterion, precision and
   * minMeasureMs (optional, null when absent). Readers take 1 as well: the new fields are then null.
   */
  public static final int SCHEMA = 2;

  /** {@link #stopReason()} of an execution stopped by SIGINT or SIGTERM (Ctrl-C). */
  public static final String INTERRUPTED = "interrupted";
  /** {@link #stopReason()} on STOPPING: the mean was known to the plan's precision. */
  public static final String STOP_PRECISE = "precise";
  /** {@link #stopReason()} on STOPPING: the spread rule (or a connection count's rise) settled. */
  public static final String STOP_SETTLED = "settled";
  /** {@link #stopReason()} on STOPPING: the planned duration was reached. */
  public static final String STOP_DURATION = "duration";
  /**
   * {@link #stopReason()} on STOPPING: a client ended inside its time in a test read from the hosts' samplers, and the
   * window ended where it stopped loading them (the rows after it had fewer streams than the plan's).
   */
  public static final String STOP_CLIENT_ENDED = "client_ended";

  /**
   * When a run's metric counts as settled: over {@code windowMs}, (max − min) / mean ≤ {@code maxSpread};
   * for connection counts a rise ≤ {@code maxRise} (fractions, not percent). With {@code criterion}
   * {@value #PRECISION}, the other metrics are judged instead on every sample since the repetition's MEASURING began:
   * settled once their mean is known to {@code precision} (docs/steady-state.md); a connection count keeps its rise.
   *
   * @param criterion    {@value #SPREAD} or {@value #PRECISION}; null (older producers): {@value #SPREAD}
   * @param precision    with {@value #PRECISION}: the 95 % confidence half-width of the mean the run wants, as a
   *                     fraction of the mean (0.01: ±1 %); null otherwise
   * @param minMeasureMs with {@value #PRECISION}: how long to measure at least before the mean may count as known, ms;
   *                     null otherwise
   */
  public record Steady(long windowMs, double maxSpread, double maxRise, String criterion, Double precision,
      Long minMeasureMs) {

    /** The range rule over a sliding window: the default. */
    public static final String SPREAD = "spread";
    /** The mean known to a stated precision (issue 17). */
    public static final String PRECISION = "precision";

    /** The spread rule, the default: a criterion, precision and minimum apply to the precision rule only. */
    public Steady(long windowMs, double maxSpread, double maxRise) {
      this(windowMs, maxSpread, maxRise, null, null, null);
    }

    /** The precision criterion; the window and rise still judge a connection count, whose value is a maximum. */
    public static Steady ofPrecision(long windowMs, double maxSpread, double maxRise, double precision,
        long minMeasureMs) {
      return new Steady(windowMs, maxSpread, maxRise, PRECISION, precision, minMeasureMs);
    }
  }

  /**
   * The repetition's plan: warm-up then measuring for {@code durationMs} at most; with {@code stop} "steady" it may
   * end earlier.
   *
   * @param clients the tool client instances each repetition starts: a per-second sum over instances (netperf's
   *                interim lines) counts only once all of them are in it; null from older producers
   */
  public record Planned(long warmupMs, long durationMs, String stop, Integer clients) {

    /** Without the client count (older producers, progress displays). */
    public Planned(long warmupMs, long durationMs, String stop) {
      this(warmupMs, durationMs, stop, null);
    }
  }

  /**
   * What ended a climb of concurrent connections.
   *
   * @param endedBy what, e.g. {@code client_ports}, {@code sut_open_files}, {@code syn_timeouts}, {@code time_up}
   * @param side    whose limit: {@code sut} (the figure is the SUT's), {@code client} (the client's, not the SUT's),
   *                {@code plan} (the cap or the test's time), {@code unknown}
   * @param detail  one line for people: per client host (and the SUT's server) what it met, with its numbers
   */
  public record Climb(String endedBy, String side, String detail) {}

  public RunEvent {
    sharedWithNetpulse = sharedWithNetpulse == null ? null : java.util.List.copyOf(sharedWithNetpulse);
    labels = labels == null ? null : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(labels));
    hostFacts = hostFacts == null ? null : java.util.List.copyOf(hostFacts);
  }

  /**
   * A repetition's event entering {@code phase}, with the current schema and nothing more said: no execution, steady
   * thresholds, timing, climb, hosts, labels or facts. The {@code with...} methods add those.
   *
   * @param type  the plan's test type; null when unknown
   * @param sut   the host under test; null when unknown
   * @param iface the SUT's interface whose sar rows give the result; null when unknown or not sar-based
   */
  public static RunEvent ofRepetition(String run, String plan, String test, int repetition, Phase phase, long ts,
      String reason, String type, String sut, String iface) {
    return new RunEvent(SCHEMA, run, plan, test, repetition, phase, ts, reason, type, sut, iface, null, null, null,
        null, null, null, null, null, null, null);
  }

  /** The same event as part of {@code execution}, judged with {@code steady}. */
  public RunEvent inExecution(String execution, Steady steady) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event with its planned timing. */
  public RunEvent withPlanned(Planned planned) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event saying what ended the repetition's climb (null: nothing to say). */
  public RunEvent withClimb(Climb climb) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event naming the repetition's hosts that are the machine running netpulse (empty: none). */
  public RunEvent withSharedWithNetpulse(java.util.List<String> hosts) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, hosts, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event with the plan's labels and the test's planned repetitions. */
  public RunEvent withPlanLabels(java.util.Map<String, String> labels, Integer repetitions) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event with the test's hosts' facts (null: none). */
  public RunEvent withHostFacts(java.util.List<HostInfo> hostFacts) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same event saying why the execution stopped early (null: it did not). */
  public RunEvent withStopReason(String stopReason) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason, stopReasons);
  }

  /** The same, with each named metric's own reason (see {@link #stopReasons}). */
  public RunEvent withStopReasons(String stopReason, java.util.Map<String, String> byMetric) {
    return new RunEvent(schema, run, plan, test, repetition, phase, ts, reason, type, sut, iface, execution, steady,
        planned, climb, sharedWithNetpulse, labels, hostFacts, repetitions, stopReason,
        byMetric == null || byMetric.isEmpty() ? null : java.util.Map.copyOf(byMetric));
  }

  public enum Phase { PLANNED, PREPARING, WARMUP, MEASURING, STEADY, STOPPING, DONE, FAILED }
}
