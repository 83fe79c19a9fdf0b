package io.netpulse.launcher.procedure;

/**
 * Where a test's result comes from: samples named {@code sampleMetric} (DESIGN §3) parsed from
 * {@code source} output on {@code host} ({@code iface} for sar rows, else null), combined per repetition by
 * {@code combine}, reported as {@code metric} in {@code unit}.
 */
public record ResultRule(
    String metric, String unit, String source, String sampleMetric, String host, String iface, Combine combine) {}
