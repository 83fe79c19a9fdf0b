package io.netpulse.processor.store;

import com.influxdb.LogLevel;
import com.influxdb.client.InfluxDBClient;
import com.influxdb.client.InfluxDBClientFactory;
import com.influxdb.client.InfluxDBClientOptions;
import com.influxdb.client.WriteApiBlocking;
import com.influxdb.client.write.Point;
import com.influxdb.exceptions.InfluxException;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.Sample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes netpulse events to InfluxDB 2.x/3.x (or anything speaking its v2 write API, such as the embedded QuestDB)
 * through influxdb-client-java's blocking {@link WriteApiBlocking}. Points are held until {@link #flush()}, which
 * sends them in requests of {@link #BATCH_SIZE_POINTS} on the calling thread and says whether the store took every
 * one. Point layout: see {@link StorePoints}.
 *
 * <p>Why blocking, with no buffer or retries of its own: the caller keeps its input (Kafka offsets) until a flush
 * says true and reads it again otherwise, so the input is the buffer and the caller's re-read is the retry. The
 * client's asynchronous {@code WriteApi} reports settled batches as events, not per flush, and drops a batch once its
 * own retries are spent; counted against flushes, another copy's success or a failure could settle a flush whose
 * points were never written. A store down for 60 s once lost 30 s of rates in the restart acceptance test that way
 * (the likely cause; it did not recur in isolation). Here a flush is true only when each of its requests was.
 *
 * <p>Never throws write failures into the caller's thread: they are counted ({@link #failedBatches()}) and logged
 * at most once per {@link #FAILURE_LOG_INTERVAL}. The token is handed to the client and is never logged or kept
 * here.
 */
public final class InfluxStore implements AutoCloseable {

  /** Points per HTTP request. */
  public static final int BATCH_SIZE_POINTS = 1_000;
  public static final Duration FAILURE_LOG_INTERVAL = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(InfluxStore.class);

  private final String url;
  private final String bucket;
  private final InfluxDBClient client;
  private final WriteApiBlocking writeApi;
  private final List<Point> pending = new ArrayList<>();
  private final AtomicLong writtenPoints = new AtomicLong();
  private final AtomicLong failedBatches = new AtomicLong();
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
        .build(); // the client's HTTP timeouts (10 s to connect, read, write) bound a flush to a hung store
    this.client = InfluxDBClientFactory.create(options);
    this.writeApi = client.getWriteApiBlocking();
  }

  /** Holds one three-run result as a {@code netpulse_result} point until the next {@link #flush()}. */
  public void write(ResultEvent result) {
    hold(StorePoints.result(result));
  }

  /** Holds one row's values as a {@code net} or {@code netstat} point until the next {@link #flush()}. */
  public void write(io.netpulse.common.event.WideSample wide) {
    hold(StorePoints.wide(wide));
  }

  /** Holds one sample as a {@code netpulse_sample} point until the next {@link #flush()}. */
  public void write(Sample sample) {
    hold(StorePoints.sample(sample));
  }

  /**
   * Sends every point held, in order, and forgets them whatever the outcome.
   *
   * @return true only if the store accepted all of them; false if a request failed (then those after it were not
   *     sent either, and the caller must write them all again to have them stored)
   */
  public synchronized boolean flush() {
    List<Point> points = List.copyOf(pending);
    pending.clear();
    for (int from = 0; from < points.size(); from += BATCH_SIZE_POINTS) {
      List<Point> batch = points.subList(from, Math.min(points.size(), from + BATCH_SIZE_POINTS));
      try {
        writeApi.writePoints(batch);
      } catch (RuntimeException e) { // InfluxException for HTTP answers and I/O; nothing may reach the caller
        failedBatches.incrementAndGet();
        logFailure("a batch of " + batch.size() + " points could not be written; " + (points.size() - from)
            + " not written now, the caller writes them again", e);
        return false;
      }
      writtenPoints.addAndGet(batch.size());
    }
    return true;
  }

  /** Points the store acknowledged. */
  public long writtenPoints() {
    return writtenPoints.get();
  }

  /** Write requests that failed (the store refused them or could not be reached). */
  public long failedBatches() {
    return failedBatches.get();
  }

  /** Releases the client; points held and not flushed are not written (and logged). Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (!pending.isEmpty()) {
      LOG.warn("store {}: closing with {} point(s) not flushed, not written", url, pending.size());
      pending.clear();
    }
    client.close();
  }

  @Override
  public String toString() {
    return "InfluxStore[" + url + ", bucket " + bucket + "]";
  }

  /** The store's base URL. */
  public String url() {
    return url;
  }

  private synchronized void hold(Point point) {
    if (closed) {
      logFailure("point written after close, ignored", null);
      return;
    }
    pending.add(point);
  }

  private void logFailure(String what, Throwable cause) {
    long count = failuresSinceLog.incrementAndGet();
    long last = lastFailureLogNanos.get();
    long now = System.nanoTime();
    if (now - last >= FAILURE_LOG_INTERVAL.toNanos() && lastFailureLogNanos.compareAndSet(last, now)) {
      failuresSinceLog.addAndGet(-count);
      // Only the message: the client's exceptions carry the server's answer, never request headers.
      LOG.warn("store {}: {} ({} store problem(s) in the last minute; {} failed request(s) in all){}",
          url, what, count, failedBatches.get(), cause == null ? "" : ": " + describe(cause));
    }
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    if (cause instanceof InfluxException influx && influx.status() > 0) {
      return "HTTP " + influx.status() + (message == null ? "" : " " + message);
    }
    return message == null ? cause.getClass().getSimpleName() : message;
  }

  private static String requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is empty");
    }
    return value;
  }
}
