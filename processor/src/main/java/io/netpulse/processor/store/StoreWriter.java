package io.netpulse.processor.store;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.function.ToDoubleFunction;
import io.netpulse.common.Topics;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies {@code results}, the {@code net} and {@code netstat} rows of {@code metrics} and their 10-s windows on
 * {@code windows} into the store: a Kafka consumer on its own thread that writes each {@link ResultEvent} and such
 * {@link WideSample} through an {@link InfluxStore} and commits the offsets of a polled batch only once
 * the store has confirmed it (at least once: after a store failure the batch is read again).
 * Records that cannot be read are skipped, counted and logged. The store is the caller's to close.
 */
public final class StoreWriter implements AutoCloseable {

  public static final String GROUP_ID = "netpulse-store";
  public static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
  /** Pause before re-reading a batch the store did not confirm. */
  public static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
  public static final int MAX_POLL_RECORDS = 2_000;

  private static final Logger LOG = LoggerFactory.getLogger(StoreWriter.class);

  private final String resultsTopic;
  private final String metricsTopic;
  private final String windowsTopic;
  private final JsonSerde<WideSample> wideSerde = JsonSerde.of(WideSample.class);
  private final AtomicLong storedMetrics = new AtomicLong();
  private final JsonSerde<ResultEvent> resultSerde = JsonSerde.of(ResultEvent.class);
  private final AtomicLong storedResults = new AtomicLong();
  private final InfluxStore store;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private final AtomicLong badRecords = new AtomicLong();
  private final AtomicLong retriedBatches = new AtomicLong();
  private volatile boolean running = true;
  private volatile boolean closed;
  /** null until the store answered once and its tables were made to keep one point per series and time */
  private StoreTables.Kind storeKind;

  public StoreWriter(KafkaConnection kafka, Topics topics, InfluxStore store) {
    this.resultsTopic = topics.results();
    this.metricsTopic = topics.metrics();
    this.windowsTopic = topics.windows();
    this.store = store;
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP_ID);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, GROUP_ID + "-" + ProcessHandle.current().pid());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"); // committed after the store confirms
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"); // a new group stores all history kept
    // The processor writes in exactly-once transactions: skip aborted ones.
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
    // A writer that died with its processor (SIGKILL) is out of the group within 10 s, not 45 s: until then the
    // restarted one gets no partitions and the store falls behind (the processor's own consumer does the same).
    props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
    props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 2_000);
    this.consumer = new KafkaConsumer<>(kafka.clientProperties(props), new StringDeserializer(), new ByteArrayDeserializer());
    this.thread = new Thread(this::run, "netpulse-store-writer");
    this.thread.setDaemon(true);
  }

  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException("StoreWriter is closed");
    }
    if (thread.getState() == Thread.State.NEW) {
      consumer.subscribe(List.of(resultsTopic, metricsTopic, windowsTopic));
      thread.start();
    }
  }

  /** Results the store confirmed and whose offsets were committed. */
  public long storedResults() {
    return storedResults.get();
  }

  /**
   * {@code net} and {@code netstat} rows of {@code metrics}, and their 10-s windows on {@code windows}, the store
   * confirmed and whose offsets were committed.
   */
  public long storedMetrics() {
    return storedMetrics.get();
  }

  /** Records on the topics it reads that could not be read, skipped. */
  public long badRecords() {
    return badRecords.get();
  }

  /**
   * The writer's meters: what it stored, could not store or read, and its consumer's own metrics (records-lag-max:
   * how far the store is behind the topics it reads), bound with Micrometer's {@code KafkaClientMetrics}.
   * The counters read this writer live (Micrometer holds it weakly: it must stay referenced while served).
   */
  public List<MeterBinder> meters() {
    MeterBinder counters = registry -> {
      counter(registry, "netpulse.store.results", "Results the store confirmed (offsets committed).",
          w -> w.storedResults());
      counter(registry, "netpulse.store.metrics",
          "net and netstat rows and their 10-s windows the store confirmed (offsets committed).",
          w -> w.storedMetrics());
      counter(registry, "netpulse.store.bad.records", "Records that could not be read, skipped.",
          w -> w.badRecords());
      counter(registry, "netpulse.store.retried.batches",
          "Polled batches read again because the store did not confirm them.", w -> w.retriedBatches());
      counter(registry, "netpulse.store.written.points", "Points the store accepted.", w -> w.store.writtenPoints());
      counter(registry, "netpulse.store.write.errors",
          "Write requests the store refused or that could not reach it (their batch is read again).",
          w -> w.store.failedBatches());
    };
    return List.of(counters, new KafkaClientMetrics(consumer)); // the latter to be closed with the registry
  }

  private void counter(MeterRegistry registry, String name, String help, ToDoubleFunction<StoreWriter> value) {
    FunctionCounter.builder(name, this, value).description(help).register(registry);
  }

  /** Polled batches read again because the store did not confirm them. */
  public long retriedBatches() {
    return retriedBatches.get();
  }

  /** Stops polling, lets the batch in hand finish, closes the consumer. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = false;
    }
    if (thread.getState() == Thread.State.NEW) {
      consumer.close();
      return;
    }
    consumer.wakeup();
    try {
      thread.join(CLOSE_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("rates-to-store thread did not stop within {} s", CLOSE_TIMEOUT.toSeconds());
    }
  }

  private void run() {
    try {
      while (running) {
        try {
          storeOneBatch(consumer.poll(POLL_TIMEOUT));
        } catch (WakeupException e) {
          // close() asked us to stop; the loop condition ends it
        } catch (KafkaException e) {
          LOG.warn("reading {} failed, retrying in {} ms: {}", List.of(resultsTopic, metricsTopic, windowsTopic), RETRY_BACKOFF.toMillis(), e.getMessage());
          pause();
        }
      }
    } finally {
      consumer.close();
    }
  }

  private void storeOneBatch(ConsumerRecords<String, byte[]> records) {
    if (records.isEmpty()) {
      return;
    }
    Map<TopicPartition, Long> firstOffsets = new HashMap<>();
    Map<TopicPartition, OffsetAndMetadata> nextOffsets = new HashMap<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      TopicPartition partition = new TopicPartition(record.topic(), record.partition());
      firstOffsets.putIfAbsent(partition, record.offset());
      nextOffsets.put(partition, new OffsetAndMetadata(record.offset() + 1));
    }
    if (!tablesReady()) { // the store did not answer: as a failed batch, read again later
      retriedBatches.incrementAndGet();
      firstOffsets.forEach(consumer::seek);
      pause();
      return;
    }
    long results = 0;
    long metrics = 0;
    for (ConsumerRecord<String, byte[]> record : records) {
      if (record.topic().equals(metricsTopic) || record.topic().equals(windowsTopic)) {
        WideSample wide = read(record, wideSerde);
        // a tool's whole-run summary (sar's Average: row) is not a second's value: stored under the same tags, it
        // would replace the row of the second it was read in
        if (wide != null && !wide.summaryRow() && StorePoints.isStoredWide(wide.name())) {
          store.write(wide);
          metrics++;
        }
        continue;
      }
      ResultEvent result = parseResult(record);
      if (result != null) {
        store.write(result);
        results++;
      }
    }
    if (store.flush()) {
      consumer.commitSync(nextOffsets);
      storedResults.addAndGet(results);
      storedMetrics.addAndGet(metrics);
    } else {
      // Not confirmed: read the batch again rather than lose it (the store may see some points twice: they overwrite).
      retriedBatches.incrementAndGet();
      firstOffsets.forEach(consumer::seek);
      pause();
    }
  }

  /**
   * Before the first write, the store's tables are made to deduplicate (QuestDB) or found to overwrite by
   * themselves (InfluxDB): a batch read again after an outage must not add rows.
   */
  private boolean tablesReady() {
    if (storeKind != null) {
      return true;
    }
    try {
      storeKind = StoreTables.prepare(store.url()).orElse(null);
    } catch (RuntimeException e) { // e.g. a QuestDB too old for DEDUP: store anyway, and say what it costs
      LOG.error("store at {}: could not make netpulse's tables deduplicate ({}); a batch written again after an "
          + "outage will add rows", store.url(), e.getMessage());
      storeKind = StoreTables.Kind.QUESTDB;
    }
    return storeKind != null;
  }

  private ResultEvent parseResult(ConsumerRecord<String, byte[]> record) {
    if (record.value() == null) {
      return null; // a tombstone on the compacted topic: nothing to store
    }
    try {
      return resultSerde.deserialize(record.topic(), record.value());
    } catch (RuntimeException e) {
      skipped(record, e);
      return null;
    }
  }

  private <T> T read(ConsumerRecord<String, byte[]> record, JsonSerde<T> as) {
    try {
      T value = as.deserialize(record.topic(), record.value());
      if (value == null) {
        throw new IllegalArgumentException("empty value");
      }
      return value;
    } catch (RuntimeException e) {
      skipped(record, e);
      return null;
    }
  }

  private void skipped(ConsumerRecord<String, byte[]> record, RuntimeException e) {
    long bad = badRecords.incrementAndGet();
    if (bad == 1 || bad % 1000 == 0) { // the first, then a reminder, not one line per record
      LOG.warn("skipped {} record(s) on {} that could not be read; latest at partition {} offset {}: {}",
          bad, record.topic(), record.partition(), record.offset(), String.valueOf(e.getMessage()).replace('\n', ' '));
    }
  }

  private void pause() {
    try {
      Thread.sleep(RETRY_BACKOFF.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }
}
