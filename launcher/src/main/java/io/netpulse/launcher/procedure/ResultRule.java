package io.netpulse.launcher.procedure;

/**
 * Where a test's result comes from: samples named {@code sampleMetric} (docs/topics.md) parsed from
 * {@code source} output on {@code host} ({@code iface} for sar rows, else null), combined per repetition by
 * {@code combine}, reported as {@code metric} in {@code unit}. Metric, sample metric, unit and combine
 * are the processor's {@code RunValueRules} for the test's type (ProcedureContractTest holds them equal).
 */
public record ResultRule(
    String metric, String unit, String source, String sampleMetric, String host, String iface, Combine combine) {}
