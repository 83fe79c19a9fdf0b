package io.netpulse.common;

import java.util.List;

/** Topic names (docs/topics.md), under a configurable prefix (default {@code netpulse.}). */
public record Topics(String prefix) {

  public static final String DEFAULT_PREFIX = "netpulse.";

  public Topics {
    if (prefix == null) {
      prefix = DEFAULT_PREFIX;
    }
  }

  public static Topics defaults() {
    return new Topics(DEFAULT_PREFIX);
  }

  public String lines() {
    return prefix + "lines";
  }

  public String toolOutput() {
    return prefix + "tool-output";
  }

  public String runs() {
    return prefix + "runs";
  }

  /** One record per host, scope and second with all its values ({@code WideSample}, Telegraf's shape). */
  public String metrics() {
    return prefix + "metrics";
  }

  /**
   * Each host's 10-s tumbling windows of its per-second rows: one record per host, scope and window with every
   * field's mean, min and max and the count of rows ({@code WideSample} named {@code net_10s}, ...).
   */
  public String windows() {
    return prefix + "windows";
  }

  public String steady() {
    return prefix + "steady";
  }

  public String results() {
    return prefix + "results";
  }

  /** The newest execution's result per plan/test/metric (compacted): {@code results} keeps every execution. */
  public String resultsLatest() {
    return prefix + "results-latest";
  }

  public String dlq() {
    return prefix + "dlq";
  }

  /** Each repetition's CPU use per host over its measuring window ({@code CpuUse}), keyed by run. */
  public String cpu() {
    return prefix + "cpu";
  }

  public List<String> all() {
    return List.of(lines(), toolOutput(), runs(), metrics(), windows(), steady(), results(), resultsLatest(), dlq(), cpu());
  }

  /**
   * Topics whose records are latest-value-per-key and so are compacted rather than deleted: {@code results} is keyed
   * per execution, so compaction keeps each execution's last update (nothing of another execution is replaced).
   */
  public boolean isCompacted(String topic) {
    return topic.equals(results()) || topic.equals(resultsLatest());
  }
}
