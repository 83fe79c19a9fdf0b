package io.netpulse.dashboard;

import io.netpulse.common.Topics;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads runs, steady, results and metrics on its own thread into a {@link DashboardState}. Partitions are assigned, not
 * subscribed: every dashboard sees everything, no group rebalance delays the start, and each topic starts where the
 * page needs it: runs, steady and results from the beginning (what is running and what has finished), metrics from
 * the end (only live figures; a late dashboard does not replay hours of per-second rows).
 */
final class DashboardFeed implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DashboardFeed.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration TOPIC_WAIT = Duration.ofSeconds(2);

  private final Topics topics;
  private final DashboardState state;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, Decoder> decoders;
  private final CompletableFuture<Void> positioned = new CompletableFuture<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean started;

  /** Decodes one topic's records and hands them to the state. */
  private interface Decoder {
    void accept(String key, byte[] value);
  }

  /** Micrometer's binder of the consumer's own metrics (records-lag-max, records-consumed-total, ...). */
  io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics consumerMetrics() {
    return new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(consumer);
  }

  DashboardFeed(KafkaConnection kafka, Topics topics, DashboardState state) {
    this.topics = topics;
    this.state = state;
    Map<String, Object> props = new java.util.HashMap<>();
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "netpulse-dashboard");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // results are written in transactions by the processor: show only committed ones
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    // Bytes, decoded per record: one bad record is skipped instead of stopping the poll loop.
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    this.consumer = new KafkaConsumer<>(kafka.clientProperties(props));
    JsonSerde<RunEvent> runs = JsonSerde.of(RunEvent.class);
    JsonSerde<WideSample> metrics = JsonSerde.of(WideSample.class);
    JsonSerde<SteadyEvent> steady = JsonSerde.of(SteadyEvent.class);
    JsonSerde<ResultEvent> results = JsonSerde.of(ResultEvent.class);
    this.decoders = Map.of(
        topics.runs(), (k, v) -> state.run(runs.deserialize(topics.runs(), v)),
        topics.metrics(), (k, v) -> state.metric(metrics.deserialize(topics.metrics(), v)),
        topics.steady(), (k, v) -> state.steady(steady.deserialize(topics.steady(), v)),
        topics.results(), (k, v) -> state.result(k, results.deserialize(topics.results(), v)));
    this.thread = new Thread(this::run, "netpulse-dashboard-feed");
    this.thread.setDaemon(true);
  }

  void start() {
    started = true;
    thread.start();
  }

  /** Waits until every topic's partitions are assigned and positioned: rows produced from then on are all shown. */
  void awaitPositioned(Duration timeout) throws TimeoutException {
    try {
      positioned.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TimeoutException("interrupted while waiting for the dashboard feed");
    } catch (ExecutionException e) {
      throw new IllegalStateException("dashboard feed failed: " + e.getCause().getMessage(), e.getCause());
    }
  }

  private void run() {
    try {
      assignAll();
      while (running) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
          accept(record);
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (RuntimeException e) {
      LOG.error("dashboard feed stopped: {}", e.toString());
      positioned.completeExceptionally(e);
    } finally {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
    }
  }

  /** Waits for the four topics to exist (a dashboard may start before the pipeline creates them). */
  private void assignAll() {
    List<String> names = List.of(topics.runs(), topics.steady(), topics.results(), topics.metrics());
    boolean warned = false;
    while (running) {
      List<TopicPartition> fromStart = new ArrayList<>();
      List<TopicPartition> fromEnd = new ArrayList<>();
      List<String> missing = new ArrayList<>();
      for (String topic : names) {
        List<PartitionInfo> infos;
        try {
          infos = consumer.partitionsFor(topic, TOPIC_WAIT);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
          infos = List.of();
        }
        if (infos == null || infos.isEmpty()) {
          missing.add(topic);
          continue;
        }
        for (PartitionInfo p : infos) {
          (topic.equals(topics.metrics()) ? fromEnd : fromStart).add(new TopicPartition(topic, p.partition()));
        }
      }
      if (missing.isEmpty()) {
        List<TopicPartition> all = new ArrayList<>(fromStart);
        all.addAll(fromEnd);
        consumer.assign(all);
        consumer.seekToBeginning(fromStart);
        consumer.seekToEnd(fromEnd);
        all.forEach(consumer::position); // resolve "end" now, so rows produced from here on are never skipped
        positioned.complete(null);
        return;
      }
      if (!warned) {
        LOG.warn("dashboard waiting for topics {} to be created", missing);
        warned = true;
      }
    }
  }

  private void accept(ConsumerRecord<String, byte[]> record) {
    state.counted(record.topic());
    Decoder decoder = decoders.get(record.topic());
    try {
      decoder.accept(record.key(), record.value());
    } catch (SerializationException | IllegalArgumentException e) {
      state.skipped(record.topic());
      LOG.warn("skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
    }
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
}
