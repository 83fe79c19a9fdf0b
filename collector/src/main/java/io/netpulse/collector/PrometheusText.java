package io.netpulse.collector;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The collector's counters in the Prometheus text exposition format (version 0.0.4): one family per counter, labelled
 * by host and source, then the Kafka producer's send rate and errors and the heap in use. Names and units are listed
 * in docs/collector.md.
 */
public final class PrometheusText {

  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private record Family(String name, String type, String help, ToDoubleFunction<SourceStats> value) {}

  private static final List<Family> PER_SOURCE = List.of(
      new Family("netpulse_collector_lines_read_total", "counter", "Lines read from the sampler or tool.",
          SourceStats::read),
      new Family("netpulse_collector_lines_sent_total", "counter", "Lines acknowledged by Kafka (acks=all).",
          SourceStats::sent),
      new Family("netpulse_collector_lines_spooled_total", "counter",
          "Lines written to the disk spool because Kafka was behind or away.", SourceStats::spooled),
      new Family("netpulse_collector_lines_dropped_total", "counter",
          "Lines lost: spool bound hit, refused by Kafka, or no spool at shutdown.", SourceStats::dropped),
      new Family("netpulse_collector_sampler_restarts_total", "counter",
          "Times the sampler was started again after it died.", SourceStats::restarts),
      new Family("netpulse_collector_ssh_gaps_total", "counter", "Reconnections after a lost SSH session.",
          SourceStats::gaps),
      new Family("netpulse_collector_ssh_gap_seconds_total", "counter",
          "Time without an SSH connection over all gaps, in seconds.", s -> s.gapMillis() / 1000.0),
      new Family("netpulse_collector_restart_gaps_total", "counter",
          "Collector restarts after which the source read again.", SourceStats::restartGaps),
      new Family("netpulse_collector_restart_gap_seconds_total", "counter",
          "Time from the previous collector start's last line to this start's first, in seconds.",
          s -> s.restartGapMillis() / 1000.0));

  private PrometheusText() {}

  /** Every source of {@code metrics}, plus the producer's figures when {@code sink} is not null. */
  public static String render(CollectorMetrics metrics, KafkaLineSink sink) {
    return render(metrics.snapshot(), sink == null ? null : sink.producerFigures(), heapUsedBytes());
  }

  static String render(List<SourceStats> sources, KafkaLineSink.ProducerFigures producer, long heapUsedBytes) {
    StringBuilder out = new StringBuilder(256 + sources.size() * PER_SOURCE.size() * 96);
    for (Family f : PER_SOURCE) {
      header(out, f.name(), f.type(), f.help());
      for (SourceStats s : sources) {
        out.append(f.name()).append("{host=\"").append(escapeLabel(s.id().host()))
            .append("\",source=\"").append(escapeLabel(s.id().source())).append("\"} ")
            .append(number(f.value().applyAsDouble(s))).append('\n');
      }
    }
    if (producer != null) {
      sample(out, "netpulse_collector_kafka_record_send_rate_per_second", "gauge",
          "Records the Kafka producer sent per second (its record-send-rate).", producer.recordSendRatePerSecond());
      sample(out, "netpulse_collector_kafka_record_errors_total", "counter",
          "Records whose send to Kafka failed (the producer's record-error-total).", producer.recordErrorsTotal());
    }
    sample(out, "netpulse_collector_heap_used_bytes", "gauge", "JVM heap in use, in bytes.", heapUsedBytes);
    return out.toString();
  }

  private static void sample(StringBuilder out, String name, String type, String help, double value) {
    header(out, name, type, help);
    out.append(name).append(' ').append(number(value)).append('\n');
  }

  private static void header(StringBuilder out, String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  /** Label values escape backslash, double quote and line feed (the exposition format's rule). */
  static String escapeLabel(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String number(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    // counters are whole numbers: print them without a fraction so they read like the logs
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
  }

  private static long heapUsedBytes() {
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }
}
