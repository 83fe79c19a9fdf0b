package io.netpulse.launcher.run;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.How;

import io.netpulse.common.Units;
import io.netpulse.common.event.ResultEvent;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A figure as the seeds compute it, beside netpulse's exact one, for a user comparing with a vendor's published
 * number. sysstat's kB is 1024 bytes, so a bit rate from sar's rxkB/s or txkB/s is kB/s × 8192; seeds 000, 001 and
 * 004 turn kB/s into bit/s with × 8 × 1000 (000: "temp/1000000*8" Gbit/s; 001/004: "× 8" kbit/s), 1000/1024 of
 * it: 2.34 % lower. Only those figures differ; packet rates, netperf's and iperf's own figures are the seeds'.
 */
public final class SeedFigures {

  /** The seeds' kB (1000 B) over sysstat's (1024 B). */
  public static final double KB_AS_1000 = 1000.0 / 1024.0;
  /** Appended to a metric's name for its figure as the seeds compute it: {@code rx_bps_as_seeds}. */
  public static final String SUFFIX = "_as_seeds";
  /** The sar sample metrics made from kB columns. */
  private static final Set<String> FROM_SAR_KB = Set.of("rx_bps", "tx_bps");

  private SeedFigures() {}

  /**
   * The seeds' figure of result {@code r} of a test of {@code type}: the same repetitions, mean, spread and interval
   * scaled by {@link #KB_AS_1000}, under {@code METRIC_as_seeds}; empty where the seeds compute what netpulse does.
   */
  public static Optional<ResultEvent> of(String type, ResultEvent r) {
    boolean fromSarKb = Catalog.metricsOf(type).stream().anyMatch(rule -> rule.metric().equals(r.metric())
        && rule.how() == How.MEAN_ON_SUT && FROM_SAR_KB.contains(rule.sourceMetric()))
        && Units.BITS_PER_S.equals(r.unit());
    if (!fromSarKb) {
      return Optional.empty();
    }
    SortedMap<Integer, Double> values = new TreeMap<>();
    r.values().forEach((rep, v) -> values.put(rep, v == null ? null : v * KB_AS_1000));
    return Optional.of(new ResultEvent(r.schema(), r.plan(), r.test(), r.metric() + SUFFIX, r.unit(), values, r.n(),
        r.mean() * KB_AS_1000, scaled(r.stddev()), scaled(r.ci95()), r.hosts(), r.runs(), r.ts(), r.execution(),
        r.labels(), r.hostFacts(), r.finalResult(), r.repetitionsPlanned(), r.repetitionsCompleted(), r.stopReason(), r.stops()));
  }

  /** What a {@code METRIC_as_seeds} figure is, for the note under a table; null for other metrics. */
  public static String explain(String metric) {
    if (!metric.endsWith(SUFFIX)) {
      return null;
    }
    String exact = metric.substring(0, metric.length() - SUFFIX.length());
    return metric + ": " + exact + " as seeds 000, 001 and 004 compute it, sar kB/s × 8 × 1000 (kB taken as 1000 B; "
        + "sysstat's kB is 1024 B), 2.34 % below " + exact + ", for comparing with vendors' published figures";
  }

  /** The JSON beside an exact result: {@code {metric, unit, runs, mean, stddev, ci95, how}}. */
  static Map<String, Object> json(ResultEvent seeds) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("metric", seeds.metric());
    m.put("unit", seeds.unit());
    m.put("runs", new java.util.ArrayList<>(seeds.values().values()));
    m.put("mean", seeds.mean());
    m.put("stddev", seeds.stddev());
    m.put("ci95", seeds.ci95());
    m.put("how", explain(seeds.metric()));
    return m;
  }

  private static Double scaled(Double v) {
    return v == null ? null : v * KB_AS_1000;
  }
}
