package io.netpulse.common.event;

/**
 * The one data shape that flows from parser to topic to store: one value of one metric.
 *
 * @param metric  metric name (docs/topics.md) (rx_pps, rx_bps, tcp_estab, ...)
 * @param value   the value, in {@code unit}
 * @param unit    unit of {@code value}, e.g. "packets/s", "bit/s", "connections", "us"
 * @param host    host the value describes
 * @param iface   network interface, null when the metric is not per interface
 * @param ts      epoch milliseconds the value is for (the sampler's own clock where the line has one)
 * @param run     run id, null outside a test run
 * @param source  parser format that produced it (sar-dev, netperf, ...)
 * @param summary true for a tool's own summary of a whole run (sar's {@code Average:} rows)
 * @param test    test type the value belongs to where the tool says (netperf TCP_RR, ...), else null
 * @param instance the tool instance that printed it, for tool lines streamed while a fan-out runs (netperf
 *                 interim results: their per-second sum over instances needs each instance's own intervals);
 *                 null otherwise
 */
public record Sample(
    int schema,
    String metric,
    double value,
    String unit,
    String host,
    String iface,
    long ts,
    String run,
    String source,
    boolean summary,
    String test,
    String instance) {

  public static final int SCHEMA = 1;

  public static Sample of(String metric, double value, String unit, String iface, long ts) {
    return new Sample(SCHEMA, metric, value, unit, null, iface, ts, null, null, false, null, null);
  }

  public Sample withOrigin(String host, String run, String source) {
    return new Sample(schema, metric, value, unit, host, iface, ts, run, source, summary, test, instance);
  }

  public Sample asSummary() {
    return new Sample(schema, metric, value, unit, host, iface, ts, run, source, true, test, instance);
  }

  public Sample withTest(String test) {
    return new Sample(schema, metric, value, unit, host, iface, ts, run, source, summary, test, instance);
  }

  public Sample withInstance(String instance) {
    return new Sample(schema, metric, value, unit, host, iface, ts, run, source, summary, test, instance);
  }

  /** Key of the series this sample belongs to: host/iface/metric. */
  public String seriesKey() {
    return host + "/" + (iface == null ? "-" : iface) + "/" + metric;
  }
}
