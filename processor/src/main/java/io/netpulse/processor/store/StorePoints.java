package io.netpulse.processor.store;

import java.util.List;

import com.influxdb.client.domain.WritePrecision;
import com.influxdb.client.write.Point;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.Sample;

/**
 * How netpulse events become InfluxDB points. Close to Telegraf's {@code net} plugin (tags
 * {@code host}, {@code interface}) so Grafana habits carry over:
 *
 * <pre>
 * netpulse_sample tags host, interface, metric, unit, source, run   field value (float)
 *                 time = sample ts, ms precision
 * net            tags host, interface, run, source   fields rx_pps, tx_pps (packets/s), rx_bps, tx_bps (bit/s)
 *                 time = the sampler's second, ms precision (one point per interface row of sar -n DEV)
 * netstat        tags host, run, source   fields tcp_total, tcp_estab, tcp_closed, tcp_orphaned, tcp_timewait
 *                 (connections) time = the ss -s output's second
 * net_10s, netstat_10s   the same tags; fields FIELD_mean, FIELD_min, FIELD_max for each field above (its unit),
 *                 count (rows in the window)   time = the 10-s window's start
 * netpulse_result tags plan, execution, test, metric, unit, label_KEY (one per plan label)
 *                 fields mean, stddev, ci95 (float; the last two only from two repetitions on), n (integer),
 *                 rep_1, rep_2, … (float, per repetition), precision_1, … (float: the repetition's 95 %
 *                 half-width as a fraction, when it has one), stop_1, … (string: precise, settled or duration),
 *                 final (boolean), stop_reason (string, only when the execution stopped early: "interrupted")
 *                 time = end of the latest repetition, ms precision
 * </pre>
 *
 * A null tag value (no interface, no run, ...) leaves the tag out rather than writing an empty one.
 */
public final class StorePoints {

  public static final String SAMPLE_MEASUREMENT = "netpulse_sample";
  public static final String RESULT_MEASUREMENT = "netpulse_result";
  /** The wide measurements the store keeps, Telegraf's names: interface counters and the TCP table. */
  public static final java.util.Set<String> WIDE_MEASUREMENTS = java.util.Set.of(Sources.NET, Sources.NETSTAT);
  /** Their 10-s windows ({@code windows}): {@code net_10s}, {@code netstat_10s}. */
  public static final String WINDOW_SUFFIX = io.netpulse.processor.window.WindowTopology.NAME_SUFFIX;

  /** Whether a wide record of this name is stored: a {@link #WIDE_MEASUREMENTS} row or its window. */
  public static boolean isStoredWide(String name) {
    return name != null && (WIDE_MEASUREMENTS.contains(name) || (name.endsWith(WINDOW_SUFFIX)
        && WIDE_MEASUREMENTS.contains(name.substring(0, name.length() - WINDOW_SUFFIX.length()))));
  }
  /** The tags of a wide measurement's point: as Telegraf's, plus where the values came from. */
  private static final List<String> WIDE_TAGS = List.of("host", "interface", "run", "source");
  /** A plan label {@code instance_type} is the result tag {@code label_instance_type}. */
  public static final String LABEL_TAG_PREFIX = "label_";

  private StorePoints() {}

  public static Point sample(Sample sample) {
    Point point = Point.measurement(SAMPLE_MEASUREMENT);
    tag(point, "host", sample.host());
    tag(point, "interface", sample.iface());
    tag(point, "metric", sample.metric());
    tag(point, "unit", sample.unit());
    tag(point, "source", sample.source());
    tag(point, "run", sample.run());
    return point.addField("value", sample.value()).time(sample.ts(), WritePrecision.MS);
  }

  /** A {@code net} or {@code netstat} point: one interface row, or one TCP table, with all its fields. */
  public static Point wide(io.netpulse.common.event.WideSample wide) {
    Point point = Point.measurement(wide.name());
    WIDE_TAGS.forEach(t -> tag(point, t, wide.tags().get(t)));
    wide.fields().forEach((field, value) -> point.addField(field, value.doubleValue()));
    return point.time(wide.time(), WritePrecision.MS);
  }

  public static Point result(io.netpulse.common.event.ResultEvent result) {
    Point point = Point.measurement(RESULT_MEASUREMENT);
    tag(point, "plan", result.plan());
    tag(point, "execution", result.execution());
    tag(point, "test", result.test());
    tag(point, "metric", result.metric());
    tag(point, "unit", result.unit());
    if (result.labels() != null) {
      // prefixed: a label named like a tag (plan, test) must not replace it; keys are checked as names in the plan
      result.labels().forEach((k, v) -> tag(point, LABEL_TAG_PREFIX + k, v));
    }
    point.addField("mean", result.mean()).addField("n", (long) result.n())
        .addField("final", result.finalResult());
    if (result.stopReason() != null) {
      point.addField("stop_reason", result.stopReason()); // a field: the row it ends stays the same series
    }
    if (result.stddev() != null) {
      point.addField("stddev", result.stddev().doubleValue());
    }
    if (result.ci95() != null) {
      point.addField("ci95", result.ci95().doubleValue());
    }
    result.values().forEach((repetition, value) -> point.addField("rep_" + repetition, value.doubleValue()));
    result.stops().forEach((repetition, stop) -> {
      if (stop.precision() != null) {
        point.addField("precision_" + repetition, stop.precision().doubleValue());
      }
      if (stop.reason() != null) {
        point.addField("stop_" + repetition, stop.reason());
      }
    });
    return point.time(result.ts(), WritePrecision.MS);
  }

  private static void tag(Point point, String key, String value) {
    if (value != null && !value.isEmpty()) {
      point.addTag(key, value);
    }
  }
}
