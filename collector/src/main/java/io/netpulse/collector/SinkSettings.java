package io.netpulse.collector;

import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How lines reach Kafka.
 *
 * @param kafka            Kafka to send to
 * @param topic            the lines topic
 * @param spoolDir         where lines wait on disk while Kafka is away; null keeps them in memory only
 * @param memoryLines      lines kept in memory before they move to the spool (or the oldest are dropped)
 * @param spoolMaxBytes    bound of the spool in bytes; beyond it the oldest lines are dropped and counted
 * @param batchLines       lines per send-and-wait round trip
 * @param drainTimeout     how long close() waits for buffered lines to reach Kafka before spooling them
 * @param batchLinger      once a line is waiting, how long the shipper waits for more before sending: samplers print
 *                         a burst once a second, so this turns a produce request per line into one per burst
 */
public record SinkSettings(KafkaConnection kafka, String topic, Path spoolDir, int memoryLines,
    long spoolMaxBytes, int batchLines, Duration drainTimeout, Duration batchLinger) {

  public static final int DEFAULT_MEMORY_LINES = 10_000;
  public static final long DEFAULT_SPOOL_MAX_BYTES = 256L << 20;
  public static final Duration DEFAULT_BATCH_LINGER = Duration.ofMillis(200);

  public SinkSettings {
    if (kafka == null) {
      throw new IllegalArgumentException("Kafka bootstrap servers are missing");
    }
    if (memoryLines < 1) {
      throw new IllegalArgumentException("memory lines must be ≥ 1, got " + memoryLines);
    }
    if (batchLines < 1) {
      throw new IllegalArgumentException("batch lines must be ≥ 1, got " + batchLines);
    }
    if (batchLinger.isNegative()) {
      throw new IllegalArgumentException("batch linger must be ≥ 0, got " + batchLinger);
    }
  }

  /** Memory only (10 000 lines), no spool: what the launcher's embedded runs use. */
  public static SinkSettings memoryOnly(KafkaConnection kafka, String topic) {
    return new SinkSettings(kafka, topic, null, DEFAULT_MEMORY_LINES, DEFAULT_SPOOL_MAX_BYTES, 500,
        Duration.ofSeconds(10), DEFAULT_BATCH_LINGER);
  }

  /** Memory then a spool of 256 MiB under {@code dataDir/spool}: what the agent and the ssh collector use. */
  public static SinkSettings spooled(KafkaConnection kafka, String topic, Path dataDir) {
    return memoryOnly(kafka, topic).withSpool(dataDir.resolve("spool"), DEFAULT_SPOOL_MAX_BYTES);
  }

  public SinkSettings withSpool(Path dir, long maxBytes) {
    return new SinkSettings(kafka, topic, dir, memoryLines, maxBytes, batchLines, drainTimeout,
        batchLinger);
  }

  public SinkSettings withMemoryLines(int lines) {
    return new SinkSettings(kafka, topic, spoolDir, lines, spoolMaxBytes, batchLines, drainTimeout,
        batchLinger);
  }

  public SinkSettings withBatchLinger(Duration linger) {
    return new SinkSettings(kafka, topic, spoolDir, memoryLines, spoolMaxBytes, batchLines, drainTimeout,
        linger);
  }
}
