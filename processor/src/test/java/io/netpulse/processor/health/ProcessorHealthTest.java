package io.netpulse.processor.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The health report's judgement, on the metrics Kafka Streams and its consumer publish (names as in 4.x). */
@Tag("unit")
class ProcessorHealthTest {

  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
  private final Clock clock = new Clock() {
    @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(java.time.ZoneId zone) { return this; }
    @Override public Instant instant() { return now.get(); }
  };
  private final Map<MetricName, Metric> metrics = new HashMap<>();
  private final AtomicReference<KafkaStreams.State> state = new AtomicReference<>(KafkaStreams.State.RUNNING);
  private final AtomicBoolean reachable = new AtomicBoolean(true);
  private final ProcessorErrors errors = new ProcessorErrors(clock);
  private final ProcessorHealth health =
      new ProcessorHealth(state::get, () -> metrics, errors, reachable::get, "127.0.0.1:9092", clock);

  private void metric(String group, String name, String client, Map<String, String> more, double value) {
    Map<String, String> tags = new HashMap<>(more);
    tags.put("client-id", client);
    MetricName key = new MetricName(name, group, "", tags);
    metrics.put(key, new Metric() {
      @Override public MetricName metricName() { return key; }
      @Override public Object metricValue() { return value; }
    });
  }

  private void processed(double total, double lag) {
    metric("stream-thread-metrics", "process-total", "app-StreamThread-1", Map.of("thread-id", "app-StreamThread-1"),
        total);
    metric("consumer-fetch-manager-metrics", "records-lag", "app-StreamThread-1-consumer",
        Map.of("topic", "netpulse.lines", "partition", "0"), lag);
    // the restore consumer's lag is state being restored, not input waiting
    metric("consumer-fetch-manager-metrics", "records-lag", "app-StreamThread-1-restore-consumer",
        Map.of("topic", "app-rate-buckets-changelog", "partition", "0"), 5000);
  }

  private void later(int seconds) {
    now.set(now.get().plusSeconds(seconds));
  }

  @Test
  void runningWhileRecordsAreProcessed() {
    processed(100, 20);
    assertThat(health.check().line(0)).isEqualTo("RUNNING at=0 processed=100 waiting=20 dead_lettered=0");
    later(70);
    processed(180, 20);
    assertThat(health.check().status()).isEqualTo("RUNNING");
  }

  @Test
  void stuckWhenRecordsWaitAndNoneIsProcessedForAMinute() {
    processed(100, 20);
    health.check();
    later(30);
    assertThat(health.check().status()).isEqualTo("RUNNING");
    later(31);
    ProcessorHealth.Report report = health.check();
    assertThat(report.status()).isEqualTo("STUCK");
    assertThat(report.reason()).isEqualTo("no record processed for 61 s with 20 waiting");
    assertThat(report.healthy()).isFalse();
    processed(101, 19);
    assertThat(health.check().status()).isEqualTo("RUNNING");
  }

  @Test
  void idleIsNotStuck() {
    processed(100, 0);
    health.check();
    later(600);
    assertThat(health.check().status()).isEqualTo("RUNNING");
  }

  @Test
  void stuckWhenTheStreamThreadFailsAgainAndAgain() {
    processed(100, 3);
    errors.threadFailed(new RuntimeException("commit failed",
        new org.apache.kafka.common.errors.RecordTooLargeException("The message is 1200000 bytes")));
    later(20);
    errors.threadFailed(new RuntimeException("again"));
    assertThat(health.check().status()).isEqualTo("RUNNING");
    later(20);
    errors.threadFailed(new RuntimeException("commit failed",
        new org.apache.kafka.common.errors.RecordTooLargeException("The message is 1200000 bytes")));
    ProcessorHealth.Report report = health.check();
    assertThat(report.status()).isEqualTo("STUCK");
    assertThat(report.reason()).isEqualTo("the stream thread failed 3 times in the last 5 min, each time on records it "
        + "then reads again; last: RecordTooLargeException: The message is 1200000 bytes (in RuntimeException)");
    later(301);
    processed(150, 3);
    assertThat(health.check().status()).as("failures older than the window").isEqualTo("RUNNING");
  }

  @Test
  void waitingForKafkaWhileTheClusterDoesNotAnswer() {
    processed(100, 0);
    reachable.set(false);
    health.check();
    later(12);
    ProcessorHealth.Report report = health.check();
    assertThat(report.status()).isEqualTo("WAITING_FOR_KAFKA");
    assertThat(report.reason()).startsWith("Kafka at 127.0.0.1:9092 does not answer (for 12 s);");
    reachable.set(true);
    assertThat(health.check().status()).isEqualTo("RUNNING");
  }

  @Test
  void streamsInErrorSaysSoWithTheLastError() {
    errors.deadLettered("could not write to netpulse.rates");
    state.set(KafkaStreams.State.ERROR);
    ProcessorHealth.Report report = health.check();
    assertThat(report.line(5)).isEqualTo(
        "ERROR at=5 processed=-1 waiting=-1 dead_lettered=1 reason=\"could not write to netpulse.rates\"");
  }
}
