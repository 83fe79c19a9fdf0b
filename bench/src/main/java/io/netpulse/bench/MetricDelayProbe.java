package io.netpulse.bench;

import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.common.kafka.KafkaConnection;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * End-to-end delay as a reader of {@code metrics} sees it: a read_committed consumer (what a dashboard reading
 * exactly-once output gets) takes each per-second record (a sampler's row: its 1-s values) and records now − the end
 * of its second, i.e. how long after its second was over the values of that second became readable. Whole-run
 * summaries are no second's values and are left out. Delays are kept per report period.
 */
final class MetricDelayProbe implements AutoCloseable {

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private volatile boolean stopping;
  private long[] delaysMs = new long[1 << 16];
  private int count;

  MetricDelayProbe(KafkaConnection kafka, String metricsTopic) {
    java.util.Map<String, Object> p = new java.util.HashMap<>();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(kafka.clientProperties(p), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(metricsTopic, Duration.ofSeconds(30)).stream()
        .map(pi -> new TopicPartition(metricsTopic, pi.partition())).collect(Collectors.toList());
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    thread = new Thread(this::run, "fleet-metric-delay");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!stopping) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        long now = System.currentTimeMillis();
        try {
          WideSample row = Json.read(r.value(), WideSample.class);
          if (!row.summaryRow()) {
            add(now - (row.time() + 1_000));
          }
        } catch (IOException e) {
          // not a wide record: not ours to judge here (the processor's tests are)
        }
      }
    }
    consumer.close(Duration.ofSeconds(2));
  }

  private synchronized void add(long delayMs) {
    if (count == delaysMs.length) {
      delaysMs = Arrays.copyOf(delaysMs, count * 2);
    }
    delaysMs[count++] = delayMs;
  }

  /** The period's delays since the last call: {p50, p99} in ms, or null when no record came; then starts a new one. */
  synchronized long[] takePercentiles() {
    if (count == 0) {
      return null;
    }
    long[] d = Arrays.copyOf(delaysMs, count);
    count = 0;
    Arrays.sort(d);
    return new long[] {d[(int) Math.min(d.length - 1, Math.floor(d.length * 0.50))],
        d[(int) Math.min(d.length - 1, Math.floor(d.length * 0.99))]};
  }

  @Override
  public void close() throws InterruptedException {
    stopping = true;
    thread.join(5000);
  }
}
