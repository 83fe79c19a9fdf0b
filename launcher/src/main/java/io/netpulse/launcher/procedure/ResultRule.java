package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.How;
import io.netpulse.common.catalog.Metric;

/**
 * Where a test's result comes from: samples named {@code sampleMetric} (docs/topics.md) parsed from {@code source}
 * output on {@code host} ({@code iface} for sar rows, else null), combined per repetition as {@code how} says, reported
 * as {@code metric} in {@code unit}: a catalog {@link Metric} placed on the test's hosts.
 */
public record ResultRule(
    String metric, String unit, String source, String sampleMetric, String host, String iface, How how) {

  /** {@code m} read on {@code host} ({@code iface}: the SUT's interface for sar's figures, else null). */
  public static ResultRule of(Metric m, String host, String iface) {
    return new ResultRule(m.metric(), m.unit(), m.source(), m.sourceMetric(), host, iface, m.how());
  }

  /**
   * The per-second metric the tool's instances stream that stands for this figure when they are stopped early (the
   * catalog's {@link Metric#interim}), or null: such a tool's client lines are streamed in {@code stop: steady}.
   */
  public String interim() {
    return how.fromSamples() ? null : Catalog.interimOf(source, sampleMetric);
  }

  /**
   * The tool form (a client's tool, the lines' source) whose streamed lines carry {@link #interim}: the figure's own
   * tool, or one that prints it once a second (qperf's loop, {@code qperf-tcp_lat}); null without an interim.
   */
  public String interimSource() {
    return how.fromSamples() ? null : Catalog.interimSourceOf(source, sampleMetric);
  }
}
