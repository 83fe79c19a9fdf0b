package io.netpulse.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/** What a bench prints besides its rate: where the processor's work goes. */
final class StreamsFigures {

  /** Streams, cache and producer metrics worth reading next to the rate (summed over threads/tasks where sums). */
  private static final Set<String> WANTED = Set.of("process-rate", "commit-latency-avg", "commit-rate",
      "punctuate-latency-avg", "punctuate-rate", "record-send-rate", "batch-size-avg", "records-per-request-avg",
      "request-latency-avg", "compression-rate-avg", "poll-ratio", "process-ratio", "commit-ratio", "punctuate-ratio");

  private StreamsFigures() {}

  static List<String> metrics(Map<MetricName, ? extends Metric> metrics) {
    Map<String, List<Double>> byName = new TreeMap<>();
    metrics.forEach((name, metric) -> {
      boolean threadOrProducer = name.group().equals("stream-thread-metrics") || name.group().equals("producer-metrics");
      if (threadOrProducer && WANTED.contains(name.name()) && metric.metricValue() instanceof Double d && Double.isFinite(d)) {
        byName.computeIfAbsent(name.group().replace("-metrics", "") + " " + name.name(), k -> new ArrayList<>()).add(d);
      }
    });
    List<String> out = new ArrayList<>();
    byName.forEach((name, values) -> out.add(String.format(Locale.ROOT, "  %-40s %s", name,
        values.stream().map(v -> String.format(Locale.ROOT, "%.3g", v)).collect(Collectors.joining(" ")))));
    return out;
  }

  /** Records written to each topic of the bench (outputs, changelogs, repartitions) per input line. */
  static List<String> recordsPerLine(Admin admin, String prefix, String applicationId, long lines) throws Exception {
    List<String> out = new ArrayList<>();
    // end offsets include EOS transaction markers (one per partition per commit)
    endOffsets(admin, prefix, applicationId).forEach((t, n) -> out.add(
        String.format(Locale.ROOT, "  %-60s %10d offsets, %6.2f per line", t, n, n / (double) lines)));
    return out;
  }

  /** End offsets summed over partitions, per topic of the bench and of the application (changelogs, repartitions). */
  static Map<String, Long> endOffsets(Admin admin, String prefix, String applicationId) throws Exception {
    Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
        .filter(t -> t.startsWith(prefix) || t.startsWith(applicationId))
        .collect(Collectors.toSet());
    Map<String, org.apache.kafka.clients.admin.TopicDescription> described =
        admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS);
    Map<TopicPartition, OffsetSpec> specs = new java.util.HashMap<>();
    described.forEach((t, d) -> d.partitions().forEach(p -> specs.put(new TopicPartition(t, p.partition()), OffsetSpec.latest())));
    Map<String, Long> ends = new TreeMap<>();
    admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS)
        .forEach((tp, info) -> ends.merge(tp.topic(), info.offset(), Long::sum));
    return ends;
  }
}
