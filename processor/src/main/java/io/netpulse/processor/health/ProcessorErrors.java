package io.netpulse.processor.health;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What went wrong inside the processor, for its health report: records the exception handlers dead-lettered
 * instead of stopping on them, and stream-thread failures (each one replaces the thread and reads the failed
 * record again, so several in a row mean the processor is stuck on one record). Shared by the handlers, which
 * Kafka Streams makes itself, through the Streams configuration ({@link #CONFIG}).
 */
public final class ProcessorErrors {

  /** Key under which the instance travels in the Streams configuration to the exception handlers. */
  public static final String CONFIG = "netpulse.processor.errors";

  private final Clock clock;
  private final AtomicLong deadLettered = new AtomicLong();
  private final Deque<Long> threadFailures = new ArrayDeque<>();
  private long threadFailuresTotal;
  private String lastError;
  private long lastErrorAtMs;

  public ProcessorErrors() {
    this(Clock.systemUTC());
  }

  ProcessorErrors(Clock clock) {
    this.clock = clock;
  }

  /** A record a handler sent to the dead-letter topic rather than stop on; {@code why} is one line. */
  public synchronized void deadLettered(String why) {
    deadLettered.incrementAndGet();
    lastError = why;
    lastErrorAtMs = clock.millis();
  }

  /** A stream thread died of {@code e} (it is replaced, and reads its uncommitted records again). */
  public synchronized void threadFailed(Throwable e) {
    long now = clock.millis();
    threadFailures.addLast(now);
    threadFailuresTotal++;
    while (threadFailures.size() > 100) {
      threadFailures.removeFirst();
    }
    lastError = describe(e);
    lastErrorAtMs = now;
  }

  public long deadLettered() {
    return deadLettered.get();
  }

  public synchronized long threadFailuresTotal() {
    return threadFailuresTotal;
  }

  /** Thread failures within the last {@code windowMs}. */
  public synchronized int threadFailuresWithin(long windowMs) {
    long since = clock.millis() - windowMs;
    return (int) threadFailures.stream().filter(t -> t >= since).count();
  }

  /** The last error, one line, or null. */
  public synchronized String lastError() {
    return lastError;
  }

  public synchronized long lastErrorAtMs() {
    return lastErrorAtMs;
  }

  /** The innermost cause's class and message, on one line: what an operator can act on. */
  public static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : ": " + root.getMessage().lines().findFirst().orElse("");
    String outer = root == e ? "" : " (in " + e.getClass().getSimpleName() + ")";
    String line = root.getClass().getSimpleName() + message + outer;
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }
}
