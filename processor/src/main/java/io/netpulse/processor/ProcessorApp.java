package io.netpulse.processor;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.processor.health.DeadLetteringHandlers;
import io.netpulse.processor.health.DeadLetteringProcessingHandler;
import io.netpulse.processor.health.DeadLetteringProductionHandler;
import io.netpulse.processor.health.ProcessorErrors;
import io.netpulse.processor.health.ProcessorHealth;
import io.netpulse.processor.run.SteadyConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the processor topology as a Kafka Streams application. */
public final class ProcessorApp implements AutoCloseable {

  public static final String DEFAULT_APPLICATION_ID = "netpulse-processor";
  /** How long a clean close may take: commit, store flush and checkpoints, leaving the group. */
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration REACHABILITY_TIMEOUT = Duration.ofSeconds(3);

  private static final Logger LOG = LoggerFactory.getLogger(ProcessorApp.class);

  private final KafkaStreams streams;
  private final ProcessorErrors errors;
  /** Lines parsed by this instance's tasks: see {@link io.netpulse.processor.topology.ParseTopology#LINES_READ_CONFIG}. */
  private final java.util.concurrent.atomic.LongAdder linesRead;
  private final KafkaConnection kafka;
  private final CountDownLatch running = new CountDownLatch(1);
  private Admin admin;
  private ProcessorHealth health;

  private ProcessorApp(KafkaStreams streams, ProcessorErrors errors, java.util.concurrent.atomic.LongAdder linesRead,
      KafkaConnection kafka) {
    this.streams = streams;
    this.errors = errors;
    this.linesRead = linesRead;
    this.kafka = kafka;
  }

  /**
   * @param stateDir where Kafka Streams keeps its local state (window stores)
   */
  public static ProcessorApp start(KafkaConnection kafka, Topics topics, Path stateDir, String applicationId) {
    return start(kafka, topics, stateDir, applicationId, ProcessorSettings.DEFAULTS);
  }

  /** As {@link #start(KafkaConnection, Topics, Path, String)}, with the guarantee, commit interval, threads and producer set. */
  public static ProcessorApp start(KafkaConnection kafka, Topics topics, Path stateDir, String applicationId,
      ProcessorSettings settings) {
    ProcessorErrors errors = new ProcessorErrors();
    Properties properties = properties(kafka, stateDir, applicationId, settings);
    properties.put(ProcessorErrors.CONFIG, errors);
    java.util.concurrent.atomic.LongAdder linesRead = new java.util.concurrent.atomic.LongAdder();
    properties.put(io.netpulse.processor.topology.ParseTopology.LINES_READ_CONFIG, linesRead);
    properties.put(DeadLetteringHandlers.TOPIC_CONFIG, topics.dlq());
    KafkaStreams streams = new KafkaStreams(new ProcessorTopology(topics, SteadyConfig.DEFAULTS, java.util.Map.of())
        .build(), properties);
    ProcessorApp app = new ProcessorApp(streams, errors, linesRead, kafka);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        app.running.countDown();
      }
    });
    // A failure outside one record's processing (those go to the DLQ): replace the thread and go on, counted, so
    // that the health report can tell a thread failing again and again on the same records.
    streams.setUncaughtExceptionHandler(e -> {
      errors.threadFailed(e);
      LOG.error("stream thread failed, replacing it: {}", ProcessorErrors.describe(e));
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    streams.start();
    return app;
  }

  static Properties properties(KafkaConnection kafka, Path stateDir, String applicationId) {
    return properties(kafka, stateDir, applicationId, ProcessorSettings.DEFAULTS);
  }

  /** Streams passes the connection's client settings (security.protocol, sasl.*, ssl.*) to all its clients. */
  static Properties properties(KafkaConnection kafka, Path stateDir, String applicationId, ProcessorSettings settings) {
    java.util.Map<String, Object> p = new java.util.HashMap<>();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
        settings.exactlyOnce() ? StreamsConfig.EXACTLY_ONCE_V2 : StreamsConfig.AT_LEAST_ONCE);
    // Live dashboards want each second's rate promptly; 100 ms commits (the default) keep EOS latency low.
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, (int) settings.commitInterval().toMillis());
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.streamThreads());
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 16 * 1024 * 1024);
    // A record no serde can read is logged and skipped: the application never stops on bad input
    // (the topics fed from outside, lines, tool-output and runs, are read as bytes and dead-lettered).
    p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class);
    // An exception on one record, or an output that cannot be written, dead-letters that record instead of
    // failing the thread on it again and again (ProcessorErrors counts them for the health report).
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetteringProcessingHandler.class);
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetteringProductionHandler.class);
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, -1); // the broker's default, 1 on the embedded one
    p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), settings.producerLingerMs());
    p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), settings.producerBatchBytes());
    p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), settings.compression());
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    // A crashed instance's partitions move to the others within 10 s rather than 45 s.
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 2_000);
    return kafka.clientProperties(p);
  }

  /** Waits until every task is assigned and running; false on timeout. */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Input partitions this instance's threads hold now (how the group split them). */
  public java.util.Set<org.apache.kafka.common.TopicPartition> assignedPartitions() {
    java.util.Set<org.apache.kafka.common.TopicPartition> out = new java.util.HashSet<>();
    streams.metadataForLocalThreads().forEach(thread ->
        thread.activeTasks().forEach(task -> out.addAll(task.topicPartitions())));
    return out;
  }

  /** Kafka Streams' own metrics (process-rate, commit-latency-avg, producer record-send-rate, ...). */
  public java.util.Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric> metrics() {
    return streams.metrics();
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /**
   * Whether the processor does its work, and why not (see {@link ProcessorHealth}); the first call opens an admin
   * client to ask the cluster.
   */
  public synchronized ProcessorHealth health() {
    if (health == null) {
      admin = Admin.create(kafka.clientProperties(Map.of(
          AdminClientConfig.CLIENT_ID_CONFIG, "netpulse-processor-health",
          AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) REACHABILITY_TIMEOUT.toMillis(),
          AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) REACHABILITY_TIMEOUT.toMillis())));
      health = new ProcessorHealth(streams::state, streams::metrics, errors, this::kafkaAnswers, kafka.describe(),
          Clock.systemUTC());
    }
    return health;
  }

  private boolean kafkaAnswers() {
    try {
      return !admin.describeCluster().nodes().get(REACHABILITY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).isEmpty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Binds Kafka Streams' own metrics (Micrometer's {@code KafkaStreamsMetrics}: every client's, among them the
   * consumers' records-lag-max) and the processor's figures ({@link ProcessorMeters}) to {@code meters}.
   */
  public void bindMetrics(io.netpulse.common.metrics.ServiceMeters meters, Topics topics) {
    meters.bind(new io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics(streams));
    meters.bind(new ProcessorMeters(streams::metrics, streams::state, errors, linesRead::sum, topics));
  }

  /** What the exception handlers dead-lettered and how often the stream thread failed. */
  public ProcessorErrors errors() {
    return errors;
  }

  /**
   * Closes Kafka Streams: commits, flushes the stores, writes their checkpoints and leaves the group, within
   * {@link #CLOSE_TIMEOUT}. A JVM that exits before this returns leaves the tasks to be recovered as corrupted
   * on the next start.
   *
   * @return whether Streams closed within the timeout
   */
  public boolean closeStreams() {
    // Leave the group: otherwise a restart waits a whole session timeout before it gets its
    // partitions back (Streams keeps membership on close by default, for rolling restarts).
    return streams.close(CloseOptions.timeout(CLOSE_TIMEOUT)
        .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
  }

  @Override
  public synchronized void close() {
    if (!closeStreams()) {
      LOG.warn("Kafka Streams did not close within {} s; the next start recovers its tasks from the changelogs",
          CLOSE_TIMEOUT.toSeconds());
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(2));
    }
  }
}
