package io.netpulse.dashboard;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the rates topic on its own thread, from the latest offsets when it starts, into a {@link
 * RateStore} and hands every rate to a listener (the SSE broadcaster).
 */
final class RateFeed implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RateFeed.class);
  private static final Duration POLL = Duration.ofMillis(500);

  private final String topic;
  private final RateStore store;
  private final Consumer<RateEvent> listener;
  private final KafkaConsumer<String, byte[]> consumer;
  private final JsonSerde<RateEvent> serde = JsonSerde.of(RateEvent.class);
  private final CompletableFuture<Void> positioned = new CompletableFuture<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean started;

  RateFeed(String bootstrapServers, String topic, RateStore store, Consumer<RateEvent> listener) {
    this.topic = topic;
    this.store = store;
    this.listener = listener;
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    // A group of its own: every dashboard sees every rate, and none commits offsets others depend on.
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "netpulse-dashboard-" + UUID.randomUUID());
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "netpulse-dashboard");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // Bytes, decoded per record: one bad record is skipped instead of stopping the poll loop.
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    this.consumer = new KafkaConsumer<>(props);
    this.thread = new Thread(this::run, "netpulse-dashboard-feed");
    this.thread.setDaemon(true);
  }

  void start() {
    started = true;
    thread.start();
  }

  /**
   * Waits until the consumer owns the topic's partitions and has fixed its start offsets, so that
   * every rate produced after this returns is shown.
   */
  void awaitPositioned(Duration timeout) throws TimeoutException {
    try {
      positioned.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TimeoutException("interrupted while waiting for the rates feed");
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("rates feed failed: " + e.getCause().getMessage(), e.getCause());
    }
  }

  private void run() {
    try {
      consumer.subscribe(List.of(topic), new PositionOnAssign());
      while (running) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          accept(record);
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      LOG.error("rates feed from {} stopped: {}", topic, e.toString());
      positioned.completeExceptionally(e);
    } finally {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
    }
  }

  private void accept(ConsumerRecord<String, byte[]> record) {
    RateEvent rate;
    try {
      rate = serde.deserialize(record.topic(), record.value());
    } catch (SerializationException e) {
      LOG.warn("skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      return;
    }
    if (rate == null || rate.host() == null || rate.metric() == null) {
      LOG.warn("skipping {}-{}@{}: a rate needs host and metric",
          record.topic(), record.partition(), record.offset());
      return;
    }
    store.add(rate);
    listener.accept(rate);
  }

  @Override
  public void close() {
    running = false;
    if (!started) {
      consumer.close(CloseOptions.timeout(Duration.ZERO)); // the poll thread would have closed it
      return;
    }
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Resolves "latest" right at assignment, so rates produced from then on are never skipped. */
  private final class PositionOnAssign implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      partitions.forEach(consumer::position);
      if (!partitions.isEmpty()) {
        positioned.complete(null);
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}
  }
}
