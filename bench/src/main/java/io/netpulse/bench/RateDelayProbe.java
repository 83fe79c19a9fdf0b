package io.netpulse.bench;

import io.netpulse.common.event.RateEvent;
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
 * End-to-end delay as a reader of {@code rates} sees it: a read_committed consumer (what a dashboard reading
 * exactly-once output gets) takes each 1-s rate and records now − the window's end, i.e. how long after its second
 * was over the rate of that second became readable. Delays are kept per report period.
 */
final class RateDelayProbe implements AutoCloseable {

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private volatile boolean stopping;
  private long[] delaysMs = new long[1 << 16];
  private int count;

  RateDelayProbe(KafkaConnection kafka, String ratesTopic) {
    java.util.Map<String, Object> p = new java.util.HashMap<>();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(kafka.clientProperties(p), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(ratesTopic, Duration.ofSeconds(30)).stream()
        .map(pi -> new TopicPartition(ratesTopic, pi.partition())).collect(Collectors.toList());
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    thread = new Thread(this::run, "fleet-rate-delay");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!stopping) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        long now = System.currentTimeMillis();
        try {
          RateEvent rate = Json.read(r.value(), RateEvent.class);
          if ("1s".equals(rate.window())) {
            add(now - rate.windowEnd());
          }
        } catch (IOException e) {
          // not a rate: not ours to judge here (the processor's tests are)
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

  /** The period's delays since the last call: {p50, p99} in ms, or null when no rate came; then starts a new one. */
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
