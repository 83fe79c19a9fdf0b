package io.netpulse.processor.store;

import com.influxdb.LogLevel;
import com.influxdb.client.InfluxDBClient;
import com.influxdb.client.InfluxDBClientFactory;
import com.influxdb.client.InfluxDBClientOptions;
import com.influxdb.client.WriteApi;
import com.influxdb.client.WriteOptions;
import com.influxdb.client.write.Point;
import com.influxdb.client.write.events.BackpressureEvent;
import com.influxdb.client.write.events.WriteErrorEvent;
import com.influxdb.client.write.events.WriteRetriableErrorEvent;
import com.influxdb.client.write.events.WriteSuccessEvent;
import com.influxdb.exceptions.InfluxException;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import io.reactivex.rxjava3.core.BackpressureOverflowStrategy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes netpulse events to InfluxDB 2.x/3.x (or anything speaking its v2 write API, such as the
 * embedded QuestDB) through influxdb-client-java's non-blocking {@link WriteApi}: points are batched,
 * retried with exponential backoff, and buffered up to a bound beyond which the oldest are dropped.
 * Point layout: see {@link StorePoints}.
 *
 * <p>The client sends a full batch, and the batch a flush forces, on the calling thread; timed
 * flushes and retries run on its own scheduler.
 *
 * <p>Never throws write failures into the caller's thread: they are counted ({@link #failedBatches()},
 * {@link #droppedPoints()}) and logged at most once per {@link #FAILURE_LOG_INTERVAL}. The token is
 * handed to the client and is never logged or kept here.
 */
public final class InfluxStore implements AutoCloseable {

  /** Points per HTTP request. */
  public static final int BATCH_SIZE_POINTS = 1_000;
  /** A partial batch is sent after this long: rates arrive once a second per series. */
  public static final int FLUSH_INTERVAL_MS = 1_000;
  public static final int FIRST_RETRY_DELAY_MS = 1_000;
  public static final int RETRY_BACKOFF_BASE = 2;
  public static final int MAX_RETRY_DELAY_MS = 30_000;
  public static final int MAX_RETRIES = 5;
  /** A batch still failing after this long is given up on (counted, logged). */
  public static final int MAX_RETRY_TIME_MS = 120_000;
  /** Points held while the store is slow or down; beyond it the oldest are dropped. */
  public static final int BUFFER_LIMIT_POINTS = 100_000;
  public static final Duration FAILURE_LOG_INTERVAL = Duration.ofMinutes(1);
  public static final Duration DEFAULT_FLUSH_TIMEOUT = Duration.ofSeconds(30);
  /** On close, how long buffered points get to reach the store before they are abandoned. */
  public static final Duration CLOSE_FLUSH_TIMEOUT = Duration.ofSeconds(5);
  /** The client's own close waits up to 30 s for a store that is down; we wait this long for it. */
  public static final Duration CLOSE_CLIENT_WAIT = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(InfluxStore.class);
  /**
   * The client logs every failed batch through java.util.logging; we log them ourselves, rate
   * limited. Held in a field because j.u.l. keeps loggers weakly and would forget the level.
   */
  private static final java.util.logging.Logger CLIENT_EVENT_LOG =
      java.util.logging.Logger.getLogger("com.influxdb.client.write.events");
  private static final java.util.logging.Logger CLIENT_WRITE_LOG =
      java.util.logging.Logger.getLogger("com.influxdb.client.internal.AbstractWriteClient");

  static {
    CLIENT_EVENT_LOG.setLevel(Level.OFF);
    CLIENT_WRITE_LOG.setLevel(Level.OFF);
  }

  private final String url;
  private final String bucket;
  private final InfluxDBClient client;
  private final WriteApi writeApi;
  private final WriteAccounting accounting = new WriteAccounting();
  private final AtomicLong lastFailureLogNanos = new AtomicLong(System.nanoTime() - FAILURE_LOG_INTERVAL.toNanos());
  private final AtomicLong failuresSinceLog = new AtomicLong();
  private volatile boolean closed;

  /**
   * @param url    base URL of the store, e.g. {@code http://127.0.0.1:8086}
   * @param token  API token; the client keeps it, we do not
   * @param org    organisation (InfluxDB 2) ; QuestDB ignores it
   * @param bucket bucket (InfluxDB 2) or database (InfluxDB 3); QuestDB ignores it
   */
  public InfluxStore(String url, char[] token, String org, String bucket) {
    this.url = requireText(url, "InfluxDB URL");
    this.bucket = requireText(bucket, "InfluxDB bucket");
    InfluxDBClientOptions options = InfluxDBClientOptions.builder()
        .url(url)
        .authenticateToken(token == null ? new char[0] : token.clone())
        .org(requireText(org, "InfluxDB organization"))
        .bucket(bucket)
        .logLevel(LogLevel.NONE) // BODY/HEADERS levels would print the Authorization header
        .build();
    this.client = InfluxDBClientFactory.create(options);
    this.writeApi = client.makeWriteApi(WriteOptions.builder()
        .batchSize(BATCH_SIZE_POINTS)
        .flushInterval(FLUSH_INTERVAL_MS)
        .jitterInterval(0)
        .retryInterval(FIRST_RETRY_DELAY_MS)
        .exponentialBase(RETRY_BACKOFF_BASE)
        .maxRetryDelay(MAX_RETRY_DELAY_MS)
        .maxRetries(MAX_RETRIES)
        .maxRetryTime(MAX_RETRY_TIME_MS)
        .bufferLimit(BUFFER_LIMIT_POINTS)
        .backpressureStrategy(BackpressureOverflowStrategy.DROP_OLDEST)
        .captureBackpressureData(true) // so dropped points can be counted
        .build());
    writeApi.listenEvents(WriteSuccessEvent.class, e -> accounting.written(lineCount(e.getLineProtocol())));
    writeApi.listenEvents(WriteErrorEvent.class, e -> {
      accounting.failed();
      logFailure("a batch of points could not be written", e.getThrowable());
    });
    writeApi.listenEvents(WriteRetriableErrorEvent.class, e -> logFailure(
        "write failed, retrying in " + e.getRetryInterval() + " ms", e.getThrowable()));
    writeApi.listenEvents(BackpressureEvent.class, e -> {
      int dropped = e.getDroppedLineProtocol() == null ? 0 : e.getDroppedLineProtocol().size();
      accounting.dropped(dropped);
      logFailure("store too slow, dropped " + dropped + " oldest buffered points (" + e.getReason() + ")", null);
    });
  }

  /** Queues one rate as a {@code netpulse_rate} point; returns at once. */
  public void write(RateEvent rate) {
    submit(StorePoints.rate(rate));
  }

  /** Queues one three-run result as a {@code netpulse_result} point; returns at once. */
  public void write(io.netpulse.common.event.ResultEvent result) {
    submit(StorePoints.result(result));
  }

  /** Queues one sample as a {@code netpulse_sample} point; returns at once. */
  public void write(Sample sample) {
    submit(StorePoints.sample(sample));
  }

  /** Sends what is buffered now and waits up to {@link #DEFAULT_FLUSH_TIMEOUT}; see {@link #flush(Duration)}. */
  public boolean flush() {
    return flush(DEFAULT_FLUSH_TIMEOUT);
  }

  /**
   * Sends what is buffered now and waits until every point queued before this call is settled.
   *
   * @return true if all of them were written and nothing failed or was dropped meanwhile; false on a
   *     failure, a drop or a timeout (then the caller should not consider them stored)
   */
  public boolean flush(Duration timeout) {
    long target = accounting.submittedPoints();
    long failuresBefore = accounting.failedBatches();
    long droppedBefore = accounting.droppedPoints();
    writeApi.flush();
    try {
      return accounting.awaitSettled(target, failuresBefore, droppedBefore, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Points the store acknowledged. */
  public long writtenPoints() {
    return accounting.writtenPoints();
  }

  /** Batches given up on after retries. */
  public long failedBatches() {
    return accounting.failedBatches();
  }

  /** Points dropped because the buffer was full. */
  public long droppedPoints() {
    return accounting.droppedPoints();
  }

  /**
   * Sends what is buffered, waiting up to {@link #CLOSE_FLUSH_TIMEOUT}, then releases the client;
   * points the store has not confirmed by then are abandoned (and logged). Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    boolean settled = flush(CLOSE_FLUSH_TIMEOUT);
    closed = true;
    if (!settled) {
      long unconfirmed = accounting.submittedPoints() - accounting.writtenPoints();
      LOG.warn("store {}: closing with {} point(s) not confirmed written", url, unconfirmed);
    }
    // WriteApi.close() blocks up to 30 s while a down store is retried; do not hold shutdown for it.
    Thread closer = new Thread(writeApi::close, "influx-store-close");
    closer.setDaemon(true);
    closer.start();
    try {
      closer.join(CLOSE_CLIENT_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
  }

  @Override
  public String toString() {
    return "InfluxStore[" + url + ", bucket " + bucket + "]";
  }

  private void submit(Point point) {
    if (closed) {
      logFailure("point written after close, ignored", null);
      return;
    }
    accounting.submitted();
    try {
      writeApi.writePoint(point);
    } catch (RuntimeException e) {
      // Only a closed WriteApi throws here; the contract is never to throw into the caller.
      accounting.failed();
      logFailure("point not queued", e);
    }
  }

  private void logFailure(String what, Throwable cause) {
    long count = failuresSinceLog.incrementAndGet();
    long last = lastFailureLogNanos.get();
    long now = System.nanoTime();
    if (now - last >= FAILURE_LOG_INTERVAL.toNanos() && lastFailureLogNanos.compareAndSet(last, now)) {
      failuresSinceLog.addAndGet(-count);
      // Only the message: the client's exceptions carry the server's answer, never request headers.
      LOG.warn("store {}: {} ({} store problem(s) in the last minute; totals: {} batches failed, {} points dropped){}",
          url, what, count, accounting.failedBatches(), accounting.droppedPoints(),
          cause == null ? "" : ": " + describe(cause));
    }
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    if (cause instanceof InfluxException influx && influx.status() > 0) {
      return "HTTP " + influx.status() + (message == null ? "" : " " + message);
    }
    return message == null ? cause.getClass().getSimpleName() : message;
  }

  private static long lineCount(String lineProtocol) {
    if (lineProtocol == null || lineProtocol.isEmpty()) {
      return 0;
    }
    return lineProtocol.chars().filter(c -> c == '\n').count() + 1;
  }

  /** The store's base URL. */
  public String url() {
    return url;
  }

  private static String requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is empty");
    }
    return value;
  }
}
