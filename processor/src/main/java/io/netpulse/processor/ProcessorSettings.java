package io.netpulse.processor;

import java.time.Duration;
import java.util.Locale;

/**
 * How the processor runs: the knobs that trade latency for throughput.
 *
 * @param exactlyOnce      true: exactly-once v2 (the default); false: at-least-once (a crash may repeat
 *                         a few outputs, never lose one)
 * @param commitInterval   how often Streams commits; with exactly-once, outputs become visible to
 *                         read_committed readers at each commit, so this bounds their delay
 * @param streamThreads    Streams threads in this instance (more partitions than threads to use them)
 * @param producerLingerMs how long Streams' producer waits to fill a batch
 * @param producerBatchBytes Streams' producer batch size in bytes
 * @param compression      Streams' producer compression (none, lz4, zstd, ...)
 */
public record ProcessorSettings(boolean exactlyOnce, Duration commitInterval, int streamThreads,
    int producerLingerMs, int producerBatchBytes, String compression) {

  /** Exactly-once, 100 ms commits (each second's rate visible within ~0.1 s), one thread. */
  public static final ProcessorSettings DEFAULTS =
      new ProcessorSettings(true, Duration.ofMillis(100), 1, 5, 256 * 1024, "none");

  public ProcessorSettings {
    if (commitInterval == null || commitInterval.isNegative() || commitInterval.isZero()) {
      throw new IllegalArgumentException("commit interval must be > 0, got " + commitInterval);
    }
    if (streamThreads < 1) {
      throw new IllegalArgumentException("stream threads must be ≥ 1, got " + streamThreads);
    }
    if (producerLingerMs < 0) {
      throw new IllegalArgumentException("producer linger must be ≥ 0 ms, got " + producerLingerMs);
    }
    if (producerBatchBytes < 1024) {
      throw new IllegalArgumentException("producer batch size must be ≥ 1024 bytes, got " + producerBatchBytes);
    }
    compression = compression == null ? "none" : compression.toLowerCase(Locale.ROOT);
    if (!java.util.Set.of("none", "gzip", "snappy", "lz4", "zstd").contains(compression)) {
      throw new IllegalArgumentException("compression must be one of none, gzip, snappy, lz4, zstd; got " + compression);
    }
  }

  /** "exactly-once" or "at-least-once" (also what {@link #withGuarantee} reads). */
  public String guarantee() {
    return exactlyOnce ? "exactly-once" : "at-least-once";
  }

  public ProcessorSettings withGuarantee(String guarantee) {
    boolean eos = switch (guarantee == null ? "" : guarantee.toLowerCase(Locale.ROOT)) {
      case "exactly-once", "exactly_once", "exactly_once_v2", "eos" -> true;
      case "at-least-once", "at_least_once", "alos" -> false;
      default -> throw new IllegalArgumentException(
          "guarantee must be exactly-once or at-least-once, got '" + guarantee + "'");
    };
    return new ProcessorSettings(eos, commitInterval, streamThreads, producerLingerMs, producerBatchBytes, compression);
  }

  public ProcessorSettings withCommitInterval(Duration d) {
    return new ProcessorSettings(exactlyOnce, d, streamThreads, producerLingerMs, producerBatchBytes, compression);
  }

  public ProcessorSettings withStreamThreads(int n) {
    return new ProcessorSettings(exactlyOnce, commitInterval, n, producerLingerMs, producerBatchBytes, compression);
  }

  public ProcessorSettings withProducerLingerMs(int ms) {
    return new ProcessorSettings(exactlyOnce, commitInterval, streamThreads, ms, producerBatchBytes, compression);
  }

  public ProcessorSettings withProducerBatchBytes(int bytes) {
    return new ProcessorSettings(exactlyOnce, commitInterval, streamThreads, producerLingerMs, bytes, compression);
  }

  public ProcessorSettings withCompression(String c) {
    return new ProcessorSettings(exactlyOnce, commitInterval, streamThreads, producerLingerMs, producerBatchBytes, c);
  }

  /** One line for logs and bench reports. */
  public String describe() {
    return String.format(Locale.ROOT, "%s, commit %d ms, %d stream thread(s), producer linger %d ms, batch %d KiB, compression %s",
        guarantee(), commitInterval.toMillis(), streamThreads, producerLingerMs, producerBatchBytes / 1024, compression);
  }
}
