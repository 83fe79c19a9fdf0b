package io.netpulse.launcher.run;

import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads one topic's new records (from its end at start, read_committed: only what the processor's
 * transactions committed) on a thread of its own, keeps them, and lets callers wait for one that matches.
 * No consumer group: the launcher only listens, it must never take partitions from anyone.
 */
final class TopicFollower<V> implements AutoCloseable {

  private static final int KEPT = 20_000;

  private final KafkaConsumer<String, V> consumer;
  private final Thread thread;
  private final List<V> seen = new ArrayList<>();
  private final List<Consumer<V>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile boolean closed;

  TopicFollower(KafkaConnection kafka, String topic, Class<V> type) {
    java.util.Map<String, Object> p = new java.util.HashMap<>();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "netpulse-run-" + topic + "-" + UUID.randomUUID());
    consumer = new KafkaConsumer<>(kafka.clientProperties(p), new StringDeserializer(), JsonSerde.of(type).deserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(pi -> new TopicPartition(topic, pi.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position); // resolve "end" now, so nothing produced from here on is missed
    thread = new Thread(this::poll, "netpulse-follow-" + topic);
    thread.setDaemon(true);
    thread.start();
  }

  void onRecord(Consumer<V> listener) {
    listeners.add(listener);
  }

  private void poll() {
    try {
      while (!closed) {
        for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.value() == null) {
            continue;
          }
          synchronized (seen) {
            if (seen.size() >= KEPT) {
              seen.subList(0, KEPT / 2).clear(); // waiters look for recent records; keep memory bounded
            }
            seen.add(r.value());
            seen.notifyAll();
          }
          listeners.forEach(l -> l.accept(r.value()));
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      if (!closed) {
        System.err.println("netpulse run: stopped reading " + consumer.assignment() + ": " + e.getMessage());
      }
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /** The latest record so far that matches, waiting up to {@code timeout} for one. */
  Optional<V> await(Predicate<V> match, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (seen) {
      while (true) {
        for (int i = seen.size() - 1; i >= 0; i--) {
          if (match.test(seen.get(i))) {
            return Optional.of(seen.get(i));
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0 || closed) {
          return Optional.empty();
        }
        seen.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  /** The latest match once no newer match has arrived for {@code quiet}. */
  Optional<V> awaitQuiet(Predicate<V> match, Duration quiet) throws InterruptedException {
    return awaitQuietAll(java.util.Map.of(0, match), quiet).get(0);
  }

  /**
   * The latest match of each predicate once none of them has had a newer match for {@code quiet}: one quiet period for
   * all of a test's metrics, not one per metric (a latency test's three cost 6 s so).
   */
  <K> java.util.Map<K, Optional<V>> awaitQuietAll(java.util.Map<K, Predicate<V>> matches, Duration quiet)
      throws InterruptedException {
    java.util.Map<K, Optional<V>> latest = latest(matches);
    while (true) {
      long until = System.nanoTime() + quiet.toNanos();
      synchronized (seen) {
        while (System.nanoTime() < until && !closed) {
          seen.wait(Math.max(1, (until - System.nanoTime()) / 1_000_000));
        }
      }
      java.util.Map<K, Optional<V>> now = latest(matches);
      if (now.equals(latest)) { // records: unchanged values, whether sent again or not
        return now;
      }
      latest = now;
    }
  }

  private <K> java.util.Map<K, Optional<V>> latest(java.util.Map<K, Predicate<V>> matches)
      throws InterruptedException {
    java.util.Map<K, Optional<V>> m = new java.util.LinkedHashMap<>();
    for (java.util.Map.Entry<K, Predicate<V>> e : matches.entrySet()) {
      m.put(e.getKey(), await(e.getValue(), Duration.ZERO));
    }
    return m;
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (seen) {
      seen.notifyAll();
    }
  }
}
