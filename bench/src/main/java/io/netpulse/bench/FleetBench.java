package io.netpulse.bench;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.ProcessorSettings;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The fleet benchmark: an embedded broker, N simulated hosts sending through the collector path
 * ({@link FleetSimulator}), one or two processor instances of one application id in this JVM; every report period
 * prints lines produced, the processor group's lag on {@code lines}, heap used after a full GC and the 1-s rates'
 * end-to-end delay; at the end, whether lag and heap stayed flat.
 */
final class FleetBench {

  static final String APPLICATION_ID = "netpulse-fleet";

  /** One report period's figures. */
  record Report(long elapsedS, long linesEmitted, long linesSent, long lag, long heapUsedBytes, long[] delayP50P99Ms) {

    String describe(double linesPerS) {
      String delay = delayP50P99Ms == null ? "no 1-s value read"
          : String.format(Locale.ROOT, "p50 %.2f s, p99 %.2f s", delayP50P99Ms[0] / 1000.0, delayP50P99Ms[1] / 1000.0);
      return String.format(Locale.ROOT, "t=%4ds lines produced %,d (%.0f/s), acked %,d; lag %,d lines; heap after GC %d MiB; 1-s value delay %s",
          elapsedS, linesEmitted, linesPerS, linesSent, lag, heapUsedBytes >> 20, delay);
    }
  }

  /** Whole-run outcome. */
  record Verdict(List<Report> reports, double linesPerS, boolean keptUp, boolean heapFlat) {}

  private FleetBench() {}

  static Verdict run(Path workDir, int hosts, Duration length, Duration reportEvery, int instances, int partitions,
      ProcessorSettings settings, PrintStream out) throws Exception {
    Topics topics = new Topics("fleet.");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(workDir.resolve("kafka"), 0)) {
      kafka.createTopics(topics, partitions);
      List<ProcessorApp> apps = new ArrayList<>();
      try (Admin admin = admin(kafka)) {
        for (int i = 0; i < instances; i++) {
          apps.add(ProcessorApp.start(kafka.connection(), topics, workDir.resolve("streams-" + i), APPLICATION_ID,
              settings));
        }
        for (ProcessorApp app : apps) {
          if (!app.awaitRunning(Duration.ofSeconds(120))) {
            throw new IllegalStateException("a processor instance did not reach RUNNING within 120 s");
          }
        }
        out.printf(Locale.ROOT, "fleet: %d hosts (sar -n DEV 1 with 4 ifaces + ss -s, each second), %d processor instance(s), "
            + "%d partitions, %s%n", hosts, instances, partitions, settings.describe());
        try (MetricDelayProbe probe = new MetricDelayProbe(kafka.connection(), topics.metrics());
            FleetSimulator fleet = new FleetSimulator(kafka.connection(), topics.lines(), hosts)) {
          List<Report> reports = measure(admin, topics, fleet, probe, length, reportEvery, out);
          return verdict(reports, length, out);
        }
      } finally {
        for (ProcessorApp app : apps) {
          app.close();
        }
      }
    }
  }

  private static List<Report> measure(Admin admin, Topics topics, FleetSimulator fleet, MetricDelayProbe probe,
      Duration length, Duration reportEvery, PrintStream out) throws Exception {
    List<Report> reports = new ArrayList<>();
    long t0 = System.nanoTime();
    fleet.start();
    long lastLines = 0;
    long lastNanos = t0;
    for (long due = reportEvery.toNanos(); due <= length.toNanos(); due += reportEvery.toNanos()) {
      long sleepNanos = t0 + due - System.nanoTime();
      if (sleepNanos > 0) {
        TimeUnit.NANOSECONDS.sleep(sleepNanos);
      }
      long now = System.nanoTime();
      long emitted = fleet.linesEmitted();
      Report r = new Report(Math.round((now - t0) / 1e9), emitted, fleet.linesSent(), lag(admin, topics.lines()),
          heapAfterGc(), probe.takePercentiles());
      out.println(r.describe((emitted - lastLines) / ((now - lastNanos) / 1e9)));
      out.flush();
      reports.add(r);
      lastLines = emitted;
      lastNanos = now;
    }
    fleet.stopHosts();
    return reports;
  }

  /**
   * Judged on the second half, after the start-up backlog (JIT warm-up, first rebalance): lag is flat when the last
   * report's is not above the middle one's by more than one second of lines, and it keeps up when, besides, the last
   * lag is under five seconds of lines (a flat lag of a minute of lines is not keeping up); heap is flat when the
   * last is within 20 % + 64 MiB of the middle one's.
   */
  private static Verdict verdict(List<Report> reports, Duration length, PrintStream out) {
    Report mid = reports.get(reports.size() / 2);
    Report last = reports.get(reports.size() - 1);
    double linesPerS = last.linesEmitted() / (double) length.toSeconds();
    boolean lagFlat = last.lag() <= mid.lag() + linesPerS;
    boolean lagSmall = last.lag() <= 5 * linesPerS;
    boolean heapFlat = last.heapUsedBytes() <= mid.heapUsedBytes() * 1.2 + (64L << 20);
    out.printf(Locale.ROOT, "verdict: %.0f lines/s; lag %s (at %d s %,d, at the end %,d lines); heap %s (at %d s %d MiB, "
            + "at the end %d MiB); the processor %s%n", linesPerS, lagFlat ? "flat" : "GROWING", mid.elapsedS(),
        mid.lag(), last.lag(), heapFlat ? "flat" : "GROWING", mid.elapsedS(), mid.heapUsedBytes() >> 20,
        last.heapUsedBytes() >> 20, lagFlat && lagSmall ? "keeps up" : lagFlat ? "holds but is behind" : "falls behind");
    return new Verdict(reports, linesPerS, lagFlat && lagSmall, heapFlat);
  }

  /** Lines on {@code topic} not yet committed by the processor's group, over all partitions. */
  static long lag(Admin admin, String topic) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin.listConsumerGroupOffsets(APPLICATION_ID).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
    List<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
        .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    Map<TopicPartition, Long> ends = admin.listOffsets(partitions.stream()
            .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()))).all().get(30, TimeUnit.SECONDS)
        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    long lag = 0;
    for (TopicPartition tp : partitions) {
      OffsetAndMetadata c = committed.get(tp);
      lag += Math.max(0, ends.get(tp) - (c == null ? 0 : c.offset()));
    }
    return lag;
  }

  /** Heap in use after a full collection: what the JVM really keeps, without the garbage of the moment. */
  private static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static Admin admin(EmbeddedKafka kafka) {
    return Admin.create(kafka.connection().clientProperties());
  }
}
