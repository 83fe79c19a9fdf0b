package io.netpulse.common.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Questions about the test types' metrics ({@link TestType#ALL}): which metrics a run's type makes and how, which way a
 * metric improves, which per-second metric shows a run live. Read by the processor (run values), the launcher
 * (procedures, report), the dashboard and comparisons, so that none keeps a table of its own.
 */
public final class Catalog {

  /** Suffix of the seeds' own figure beside a sar bit rate ({@code rx_bps_as_seeds}): same direction. */
  private static final String AS_SEEDS = "_as_seeds";

  private static final Map<String, Direction> DIRECTIONS = directions();

  /** Interim metric → the figure it stands for; asked for every sample the processor reads, so made once. */
  private static final Map<String, String> FIGURE_OF_INTERIM = figuresOfInterims();
  private static final java.util.Set<String> SUMMED_INTERIMS = TestType.ALL.stream().flatMap(t -> t.metrics().stream())
      .filter(m -> m.interim() != null && m.how() == How.SUM_OVER_INSTANCES).map(Metric::interimMetric)
      .collect(java.util.stream.Collectors.toUnmodifiableSet());
  /** Figure name → its metric, for the metrics whose interim lines are reciprocal rates; asked per steady report. */
  private static final Map<String, Metric> RECIPROCAL_FIGURES = TestType.ALL.stream()
      .flatMap(t -> t.metrics().stream()).filter(m -> m.interim() != null && m.interim().reciprocal())
      .collect(java.util.stream.Collectors.toUnmodifiableMap(Metric::sourceMetric, m -> m, (a, b) -> a));

  private Catalog() {}

  /**
   * The metrics of a test: a plan's type such as {@code rx_bandwidth} (or {@code rx-bandwidth}), or an older per-tool
   * name ({@code tcp_crr}, …) of runs without a type; empty for an unknown one (its runs then give no value).
   */
  public static List<Metric> metricsOf(String test) {
    if (test == null) {
      return List.of();
    }
    return TestType.named(test).map(TestType::metrics)
        .orElseGet(() -> TestType.BY_TOOL_TEST.getOrDefault(TestType.normalise(test), List.of()));
  }

  /**
   * The metrics that make a repetition's values: the test's, less those made only when the SUT ran sar for the value
   * ({@link Metric#whenSutSar}) if the run names no SUT interface ({@code iface} null).
   */
  public static List<Metric> metricsOfRun(String test, String iface) {
    return metricsOf(test).stream().filter(m -> iface != null || !m.whenSutSar()).toList();
  }

  /** Every test name with metrics: the types and the older per-tool names. */
  public static List<String> tests() {
    return Stream.concat(TestType.yamlNames().stream(), TestType.BY_TOOL_TEST.keySet().stream().sorted()).toList();
  }

  /** Every metric the catalog names, with its direction. */
  public static Map<String, Direction> metrics() {
    return DIRECTIONS;
  }

  /**
   * Which way {@code metric} improves. A metric the catalog does not name is judged by its unit (rates and counts:
   * higher, times: lower), so that a metric from elsewhere is not silently judged the wrong way round.
   *
   * @param unit its unit, used only for metrics the catalog does not name (may be null)
   */
  public static Direction direction(String metric, String unit) {
    String m = metric == null ? "" : metric.toLowerCase(Locale.ROOT);
    if (m.endsWith(AS_SEEDS)) {
      m = m.substring(0, m.length() - AS_SEEDS.length());
    }
    Direction known = DIRECTIONS.get(m);
    return known != null ? known : byUnit(unit);
  }

  /**
   * The per-second sample metric that shows how a run of {@code type} is going (rx_bps for rx_bandwidth), for live
   * charts; empty for types whose value is a tool's final figure. {@code iface} is the SUT interface the run names
   * (null: none): udp_stream has sar's rx_pps only when its SUT ran sar.
   */
  public static Optional<String> perSecondMetric(String type, String iface) {
    TestType t = TestType.named(type).orElse(null);
    if (t == null || t.perSecondMetric() == null) {
      return Optional.empty();
    }
    boolean needsSar = t.metrics().stream().anyMatch(m -> m.sourceMetric().equals(t.perSecondMetric())
        && m.whenSutSar());
    return needsSar && iface == null ? Optional.empty() : Optional.of(t.perSecondMetric());
  }

  /** The figure an interim metric stands for ({@code interim_trans_per_s} → {@code trans_per_s}), or null. */
  public static String figureOfInterim(String interimMetric) {
    return interimMetric == null ? null : FIGURE_OF_INTERIM.get(interimMetric);
  }

  /**
   * The per-second metric that {@code source}'s instances print while they run and that stands for their final
   * {@code sourceMetric} when they are stopped early (netperf's interim_trans_per_s for trans_per_s), or null.
   */
  public static String interimOf(String source, String sourceMetric) {
    return firstOf(source, sourceMetric, Metric::interimMetric);
  }

  /**
   * The metric whose interim lines are rates of a figure that is a time (qperf's tcp_lat_us from its 1-s loop's
   * messages/s), by the figure's name, or null: what a steady report of those lines' mean must say in the figure's unit.
   */
  public static Metric reciprocalFigure(String figure) {
    return RECIPROCAL_FIGURES.get(figure);
  }

  /**
   * Whether an interim metric's lines are added up over the run's instances (netperf's, iperf's), so that a second
   * counts only with every instance in it; otherwise each instance stands alone (qperf's loop, one instance a stage).
   */
  public static boolean interimIsSummed(String interimMetric) {
    return SUMMED_INTERIMS.contains(interimMetric);
  }

  /** The source (parser format) of the interim lines that stand for {@code source}'s {@code sourceMetric}, or null. */
  public static String interimSourceOf(String source, String sourceMetric) {
    return firstOf(source, sourceMetric, m -> m.interim() == null ? null : m.interim().source());
  }

  /**
   * The metric of the per-reply samples whose mean {@code source}'s printed {@code sourceMetric} is (ping's rtt_ms for
   * rtt_avg_ms, see {@link Metric#series}), or null.
   */
  public static String seriesOf(String source, String sourceMetric) {
    return firstOf(source, sourceMetric, Metric::series);
  }

  /** The first non-null {@code field} of the metrics made of {@code source}'s {@code sourceMetric}, or null. */
  private static String firstOf(String source, String sourceMetric, Function<Metric, String> field) {
    return TestType.ALL.stream().flatMap(t -> t.metrics().stream())
        .filter(m -> m.source().equals(source) && m.sourceMetric().equals(sourceMetric))
        .map(field).filter(Objects::nonNull).findFirst().orElse(null);
  }

  private static Map<String, String> figuresOfInterims() {
    Map<String, String> out = new LinkedHashMap<>();
    TestType.ALL.stream().flatMap(t -> t.metrics().stream()).filter(m -> m.interim() != null)
        .forEach(m -> out.putIfAbsent(m.interimMetric(), m.sourceMetric())); // the first, as the search it replaces found
    return Map.copyOf(out);
  }

  private static Map<String, Direction> directions() {
    Map<String, Direction> out = new LinkedHashMap<>();
    Stream.concat(TestType.ALL.stream().flatMap(t -> t.metrics().stream()),
        TestType.BY_TOOL_TEST.values().stream().flatMap(List::stream))
        .forEach(m -> out.putIfAbsent(m.metric(), m.direction()));
    return Map.copyOf(out);
  }

  private static Direction byUnit(String unit) {
    if (unit == null) {
      return Direction.UNKNOWN;
    }
    String u = unit.strip().toLowerCase(Locale.ROOT);
    if (u.equals("us") || u.equals("µs") || u.equals("ms") || u.equals("s") || u.equals("ns")) {
      return Direction.LOWER_IS_BETTER; // a time: latency
    }
    if (u.endsWith("/s") || u.equals("connections")) {
      return Direction.HIGHER_IS_BETTER; // a rate or a count held
    }
    return Direction.UNKNOWN;
  }
}
