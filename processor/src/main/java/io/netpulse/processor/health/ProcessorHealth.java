package io.netpulse.processor.health;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says whether the processor is doing its work, and if not, why: Kafka Streams' own state says RUNNING or
 * REBALANCING even while a stream thread fails on the same record again and again, or while the broker is
 * away. Checked periodically (the caller's loop); logs each change of status once, so an outage or a stall shows
 * in the log as well as in the health file.
 *
 * <p>STUCK: the stream thread failed {@link #STUCK_FAILURES} times within {@link #FAILURE_WINDOW} (each failure
 * replaces it and reads the same uncommitted records again), or records wait on its input and none was processed
 * for {@link #NO_PROGRESS}. WAITING_FOR_KAFKA: the cluster does not answer; Streams retries by itself and the
 * collectors keep their lines meanwhile.
 */
public final class ProcessorHealth {

  public static final int STUCK_FAILURES = 3;
  public static final Duration FAILURE_WINDOW = Duration.ofMinutes(5);
  public static final Duration NO_PROGRESS = Duration.ofSeconds(60);

  private static final Logger LOG = LoggerFactory.getLogger(ProcessorHealth.class);

  /** One check's outcome. {@code waiting}: records on the input not yet processed (-1: unknown). */
  public record Report(String status, long processed, long waiting, long deadLettered, String reason) {

    /** The health file's line: the status first, then key=value pairs. */
    public String line(long nowMs) {
      return status + " at=" + nowMs + " processed=" + processed + " waiting=" + waiting + " dead_lettered="
          + deadLettered + (reason == null ? "" : " reason=\"" + reason.replace('"', '\'') + "\"");
    }

    public boolean healthy() {
      return status.equals("RUNNING") || status.equals("REBALANCING");
    }
  }

  private final Supplier<KafkaStreams.State> state;
  private final Supplier<Map<MetricName, ? extends Metric>> metrics;
  private final ProcessorErrors errors;
  private final BooleanSupplier kafkaReachable;
  private final String kafka;
  private final Clock clock;
  private long lastProcessed = -1;
  private long lastProgressMs;
  private long unreachableSinceMs = -1;
  private String lastStatus;

  /**
   * @param kafkaReachable asks the cluster (bounded time); called once per check
   * @param kafka          the cluster, for messages
   */
  public ProcessorHealth(Supplier<KafkaStreams.State> state, Supplier<Map<MetricName, ? extends Metric>> metrics,
      ProcessorErrors errors, BooleanSupplier kafkaReachable, String kafka, Clock clock) {
    this.state = state;
    this.metrics = metrics;
    this.errors = errors;
    this.kafkaReachable = kafkaReachable;
    this.kafka = kafka;
    this.clock = clock;
    this.lastProgressMs = clock.millis();
  }

  public synchronized Report check() {
    long now = clock.millis();
    KafkaStreams.State streams = state.get();
    long processed = sum("stream-thread-metrics", "process-total", null);
    long waiting = sum("consumer-fetch-manager-metrics", "records-lag", "-consumer");
    if (processed != lastProcessed || waiting <= 0) {
      lastProcessed = processed;
      lastProgressMs = now;
    }
    boolean reachable = kafkaReachable.getAsBoolean();
    if (!reachable && unreachableSinceMs < 0) {
      unreachableSinceMs = now;
    } else if (reachable) {
      unreachableSinceMs = -1;
    }
    Report report = judge(streams, processed, waiting, now);
    if (!report.status().equals(lastStatus)) {
      logChange(report);
      lastStatus = report.status();
    }
    return report;
  }

  private Report judge(KafkaStreams.State streams, long processed, long waiting, long now) {
    long dead = errors.deadLettered();
    if (streams == KafkaStreams.State.ERROR || streams == KafkaStreams.State.PENDING_ERROR
        || streams == KafkaStreams.State.NOT_RUNNING || streams == KafkaStreams.State.PENDING_SHUTDOWN) {
      return new Report(streams.name(), processed, waiting, dead, errors.lastError());
    }
    if (unreachableSinceMs >= 0) {
      long seconds = (now - unreachableSinceMs) / 1000;
      return new Report("WAITING_FOR_KAFKA", processed, waiting, dead, "Kafka at " + kafka + " does not answer"
          + (seconds > 0 ? " (for " + seconds + " s)" : "") + "; Kafka Streams retries, collectors keep their lines "
          + "meanwhile");
    }
    int failures = errors.threadFailuresWithin(FAILURE_WINDOW.toMillis());
    if (failures >= STUCK_FAILURES) {
      return new Report("STUCK", processed, waiting, dead, "the stream thread failed " + failures + " times in the last "
          + FAILURE_WINDOW.toMinutes() + " min, each time on records it then reads again; last: " + errors.lastError());
    }
    if (streams == KafkaStreams.State.RUNNING && waiting > 0 && now - lastProgressMs >= NO_PROGRESS.toMillis()) {
      return new Report("STUCK", processed, waiting, dead, "no record processed for " + (now - lastProgressMs) / 1000
          + " s with " + waiting + " waiting" + (errors.lastError() == null ? "" : "; last error: " + errors.lastError()));
    }
    return new Report(streams.name(), processed, waiting, dead, null);
  }

  private void logChange(Report report) {
    if (report.healthy()) {
      if (lastStatus != null && !lastStatus.equals("REBALANCING") && !lastStatus.equals("RUNNING")) {
        LOG.info("processor {} again (was {})", report.status(), lastStatus);
      }
    } else if (report.status().equals("WAITING_FOR_KAFKA") || report.status().equals("STUCK")) {
      LOG.warn("processor {}: {}", report.status(), report.reason());
    }
  }

  /** Sum of a metric over the clients whose client-id ends with {@code clientSuffix} (null: all), finite only. */
  private long sum(String group, String name, String clientSuffix) {
    double total = 0;
    boolean any = false;
    for (Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
      MetricName m = e.getKey();
      if (!m.group().equals(group) || !m.name().equals(name)) {
        continue;
      }
      String client = m.tags().getOrDefault("client-id", "");
      if (clientSuffix != null && (!client.endsWith(clientSuffix) || client.endsWith("restore-consumer"))) {
        continue;
      }
      Object v = e.getValue().metricValue();
      if (v instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0) {
        total += n.doubleValue();
        any = true;
      }
    }
    return any ? Math.round(total) : -1;
  }
}
