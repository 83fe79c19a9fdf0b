package io.netpulse.collector;

import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.netpulse.common.event.LineBlock;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends lines to the {@code lines} topic keyed by host: idempotent, acks=all, in order. {@link #send} never blocks
 * the reader: lines go to a {@link LineBuffer} (memory, then a bounded disk spool) and one shipper thread sends them
 * in batches, waiting for each batch's acks and sending again what failed, so an unreachable broker only delays lines.
 * A batch goes out as {@link LineBlock}s, one record per burst a source printed ({@link LineBlocks}).
 */
public final class KafkaLineSink implements LineSink {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaLineSink.class);
  private static final long MAX_BACKOFF_MS = 8000; // between attempts when send() finds no metadata
  private static final int ACK_PATIENCE_SECONDS = 5; // then the outage is logged; the wait goes on

  private final SinkSettings settings;
  private final CollectorMetrics metrics;
  private final LineBuffer buffer;
  private final KafkaProducer<String, LineBlock> producer;
  private final Thread shipper;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failedAttempts = new AtomicLong();
  private volatile boolean stopping;
  private List<LineEvent> unsent = List.of(); // shipper thread only, until it has ended
  private long outageSinceMillis; // shipper thread only

  public KafkaLineSink(KafkaConnection kafka, String topic) {
    this(SinkSettings.memoryOnly(kafka, topic), new CollectorMetrics());
  }

  public KafkaLineSink(SinkSettings settings, CollectorMetrics metrics) {
    this.settings = settings;
    this.metrics = metrics;
    DiskSpool spool = settings.spoolDir() == null ? null
        : new DiskSpool(settings.spoolDir(), settings.spoolMaxBytes(), metrics);
    this.buffer = new LineBuffer(settings.memoryLines(), spool, metrics);
    this.producer = new KafkaProducer<>(producerProperties(settings.kafka()), new StringSerializer(),
        JsonSerde.of(LineBlock.class).serializer());
    this.shipper = new Thread(this::ship, "collector-kafka-shipper");
    shipper.setDaemon(true);
    shipper.start();
  }

  private static Properties producerProperties(KafkaConnection kafka) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5); // ordered with idempotence
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    // never expire a batch: after an expiry the idempotent producer bumps its epoch and later batches of the same
    // partition can land before the expired one is sent again. The shipper keeps one batch in the producer and
    // everything else in memory and the spool (bounded, counted), so waiting does not grow the producer's buffer.
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5000);
    p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 2000);
    return kafka.clientProperties(p);
  }

  @Override
  public void send(LineEvent line) {
    buffer.offer(line);
  }

  /** Lines acknowledged by Kafka. */
  public long sent() {
    return sent.get();
  }

  /** Batches that send() could not queue (no metadata) and that were sent again. */
  public long failed() {
    return failedAttempts.get();
  }

  public CollectorMetrics metrics() {
    return metrics;
  }

  /** Micrometer's binder of the producer's own metrics (record-send-rate, record-error-total, ...). */
  public KafkaClientMetrics producerMetrics() {
    return new KafkaClientMetrics(producer);
  }

  private void ship() {
    List<LineEvent> batch = List.of();
    Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofMillis(MAX_BACKOFF_MS));
    try {
      while (!stopping || !batch.isEmpty() || !buffer.isEmpty()) {
        if (batch.isEmpty()) {
          batch = buffer.take(settings.batchLines(), 200, stopping ? 0 : settings.batchLinger().toMillis());
          continue;
        }
        SendOutcome outcome = sendAndWait(batch);
        batch = outcome.failed();
        if (batch.isEmpty()) {
          reachable();
          backoff.reset();
          continue;
        }
        failedAttempts.incrementAndGet();
        unreachable(outcome.error());
        if (stopping) {
          break; // close() keeps the rest for the next start
        }
        Thread.sleep(backoff.next());
      }
    } catch (InterruptedException | org.apache.kafka.common.errors.InterruptException e) {
      Thread.currentThread().interrupt();
    } finally {
      unsent = batch;
    }
  }

  private void unreachable(String why) {
    if (outageSinceMillis == 0) {
      outageSinceMillis = System.currentTimeMillis();
      LOG.warn("cannot send to Kafka at {} ({}); keeping lines in order in memory{} until it is back",
          settings.kafka().bootstrapServers(), why, settings.spoolDir() == null ? "" : " then in " + settings.spoolDir());
    }
  }

  private void reachable() {
    if (outageSinceMillis != 0) {
      LOG.info("Kafka at {} reachable again after {} s; sending the buffered lines", settings.kafka().bootstrapServers(),
          (System.currentTimeMillis() - outageSinceMillis) / 1000);
      outageSinceMillis = 0;
    }
  }

  private record SendOutcome(List<LineEvent> failed, String error) {}

  /**
   * Sends a batch and waits for every ack, however long the broker is away: the producer retries without a delivery
   * timeout, because an expired batch lets later batches of the same partition overtake it. Returns the lines to send
   * again, in order: those send() could not queue (no metadata within max.block.ms; the producer reports that as a
   * failed future, not by throwing) and those that failed with an error that sending again can cure.
   */
  private SendOutcome sendAndWait(List<LineEvent> batch) throws InterruptedException {
    List<LineBlock> blocks = LineBlocks.of(batch);
    List<Future<RecordMetadata>> acks = new ArrayList<>(blocks.size());
    String error = null;
    try {
      for (LineBlock block : blocks) {
        Future<RecordMetadata> ack = producer.send(new ProducerRecord<>(settings.topic(), null, block.ts(),
            block.host(), block));
        acks.add(ack);
        if (ack.isDone() && refusal(ack) instanceof Retry) {
          break; // not queued: later lines must not overtake it
        }
      }
    } catch (KafkaException e) { // metadata not available within max.block.ms: the broker is away
      error = e.getMessage();
    }
    Map<SourceId, Long> sentBySource = new HashMap<>();
    List<LineEvent> again = new ArrayList<>();
    for (int i = 0; i < acks.size(); i++) {
      LineBlock block = blocks.get(i);
      Refusal refusal = awaitAck(acks.get(i));
      if (refusal == null) {
        sentBySource.merge(new SourceId(block.host(), block.source()), (long) block.size(), Long::sum);
      } else if (refusal instanceof Retry retry) {
        again.addAll(block.events());
        error = retry.why();
      } else { // not retriable (no authorisation, a record over the broker's limit): sending again cannot help
        metrics.of(block.host(), block.source()).dropped(block.size());
        LOG.error("Kafka refused lines {} to {} of {}/{}: {}; dropped", block.seq(), block.seq() + block.size() - 1,
            block.host(), block.source(), refusal.why());
      }
    }
    sentBySource.forEach((id, n) -> metrics.of(id.host(), id.source()).sent(n));
    sent.addAndGet(sentBySource.values().stream().mapToLong(Long::longValue).sum());
    for (LineBlock unsentBlock : blocks.subList(acks.size(), blocks.size())) {
      again.addAll(unsentBlock.events());
    }
    return new SendOutcome(again, error);
  }

  /** Why a line was not acknowledged. */
  private sealed interface Refusal permits Retry, GiveUp {
    String why();
  }

  /** An outage or a producer state the producer has recovered from (new epoch): send the line again. */
  private record Retry(String why) implements Refusal {}

  /** Refused for good. */
  private record GiveUp(String why) implements Refusal {}

  /** Null once acknowledged, or why Kafka did not take the record. */
  private Refusal awaitAck(Future<RecordMetadata> ack) throws InterruptedException {
    while (true) {
      try {
        ack.get(ACK_PATIENCE_SECONDS, TimeUnit.SECONDS);
        return null;
      } catch (TimeoutException e) {
        unreachable("no acknowledgement for " + ACK_PATIENCE_SECONDS + " s");
      } catch (ExecutionException e) {
        return classify(e.getCause() == null ? e : e.getCause());
      }
    }
  }

  /** The refusal of a future that is already done (never blocks). */
  private static Refusal refusal(Future<RecordMetadata> done) throws InterruptedException {
    try {
      done.get();
      return null;
    } catch (ExecutionException e) {
      return classify(e.getCause() == null ? e : e.getCause());
    }
  }

  /**
   * Retriable errors (no metadata, no leader, timeouts) pass with time. An out-of-order sequence or unknown producer
   * id (a broker that lost the producer's state, e.g. restarted) fails the batch, but the idempotent producer bumps
   * its epoch and goes on, so the line is sent again rather than lost.
   */
  private static Refusal classify(Throwable cause) {
    String why = plainly(cause);
    return cause instanceof RetriableException || cause instanceof OutOfOrderSequenceException
        ? new Retry(why) : new GiveUp(why);
  }

  /**
   * What a send error means to an operator. The producer says "Topic X not present in metadata" both when no broker
   * answers and when the topic does not exist yet; it cannot tell which, so the message names both.
   */
  static String plainly(Throwable cause) {
    String message = cause.getMessage() == null ? "" : cause.getMessage().lines().findFirst().orElse("");
    if (cause instanceof org.apache.kafka.common.errors.TimeoutException && message.contains("not present in metadata")) {
      return "no broker answers, or the topic does not exist yet (netpulse processor creates it)";
    }
    if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
      return "no answer in time";
    }
    if (cause instanceof org.apache.kafka.common.errors.NetworkException) {
      return "connection lost";
    }
    return cause.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  /**
   * Waits up to the drain timeout for buffered lines to reach Kafka, then keeps what is left in the spool for the next
   * start (or counts it dropped when there is no spool).
   */
  @Override
  public void close() {
    stopping = true;
    try {
      shipper.join(settings.drainTimeout().toMillis());
      if (shipper.isAlive()) {
        shipper.interrupt();
        shipper.join(5000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(2));
    long lost = buffer.closeKeeping(unsent);
    if (lost > 0) {
      LOG.warn("closing with Kafka at {} unreachable: {} lines not sent and no spool dir to keep them",
          settings.kafka().bootstrapServers(), lost);
    }
  }
}
