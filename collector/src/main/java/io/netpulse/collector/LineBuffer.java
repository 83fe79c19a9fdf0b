package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lines between the sources and Kafka, in arrival order: a loaded spool segment, then the rest of the spool, then
 * memory. When memory is full its lines move to the spool's tail (so the spool always holds older lines than memory);
 * without a spool the oldest memory lines are dropped and counted.
 */
final class LineBuffer {

  private static final Logger LOG = LoggerFactory.getLogger(LineBuffer.class);

  private final int memoryLines;
  private final DiskSpool spool; // null: memory only
  private final CollectorMetrics metrics;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<LineEvent> memory = new ArrayDeque<>();
  private final ArrayDeque<LineEvent> loaded = new ArrayDeque<>(); // oldest: read back from the spool
  private long lastDropLogNanos;
  private int wakeAt = 1; // lines in memory that wake the shipper: 1 while it waits for any, the batch size while it lingers

  LineBuffer(int memoryLines, DiskSpool spool, CollectorMetrics metrics) {
    if (memoryLines < 1) {
      throw new IllegalArgumentException("memory buffer must hold at least 1 line, got " + memoryLines);
    }
    this.memoryLines = memoryLines;
    this.spool = spool;
    this.metrics = metrics;
  }

  void offer(LineEvent line) {
    lock.lock();
    try {
      memory.addLast(line);
      if (memory.size() >= memoryLines) {
        if (spool != null) {
          spill();
        } else {
          dropOldest();
        }
      }
      if (memory.size() >= wakeAt || memory.isEmpty()) { // empty: just spilled to the spool
        notEmpty.signal(); // not on every line: at 1 Hz bursts that would wake the shipper once per line
      }
    } finally {
      lock.unlock();
    }
  }

  /** Up to {@code max} oldest lines, waiting up to the timeout for the first; removed from the buffer. */
  List<LineEvent> take(int max, long timeoutMillis) throws InterruptedException {
    return take(max, timeoutMillis, 0);
  }

  /**
   * As {@link #take(int, long)}, and once a line is there waits up to {@code lingerMillis} more for the batch to fill:
   * samplers print a burst once a second, so this turns a request per line into a request per burst.
   */
  List<LineEvent> take(int max, long timeoutMillis, long lingerMillis) throws InterruptedException {
    lock.lock();
    try {
      long nanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (isEmptyLocked()) {
        if (nanos <= 0) {
          return List.of();
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      long linger = TimeUnit.MILLISECONDS.toNanos(lingerMillis);
      wakeAt = max;
      while (linger > 0 && loaded.isEmpty() && (spool == null || spool.isEmpty()) && memory.size() < max) {
        linger = notEmpty.awaitNanos(linger);
      }
      wakeAt = 1;
      if (loaded.isEmpty() && spool != null && !spool.isEmpty()) {
        loaded.addAll(spool.takeOldest());
      }
      ArrayDeque<LineEvent> from = loaded.isEmpty() ? memory : loaded;
      List<LineEvent> batch = new ArrayList<>(Math.min(max, from.size()));
      while (batch.size() < max && !from.isEmpty()) {
        batch.add(from.pollFirst());
      }
      return batch;
    } finally {
      lock.unlock();
    }
  }

  /** Lines waiting, not counting spool segments on disk. */
  int inMemory() {
    lock.lock();
    try {
      return memory.size() + loaded.size();
    } finally {
      lock.unlock();
    }
  }

  boolean isEmpty() {
    lock.lock();
    try {
      return isEmptyLocked();
    } finally {
      lock.unlock();
    }
  }

  /**
   * At shutdown: keeps what was not sent on disk for the next start, oldest first ({@code unsent} was taken
   * before everything still here). Returns how many lines had to be dropped because there is no spool.
   */
  long closeKeeping(List<LineEvent> unsent) {
    lock.lock();
    try {
      List<LineEvent> head = new ArrayList<>(unsent);
      head.addAll(loaded);
      loaded.clear();
      if (spool == null) {
        List<LineEvent> lost = new ArrayList<>(head);
        lost.addAll(memory);
        memory.clear();
        lost.forEach(l -> metrics.of(l.host(), l.source()).dropped(1));
        return lost.size();
      }
      spool.prepend(head);
      head.forEach(l -> metrics.of(l.host(), l.source()).spooled(1));
      spill();
      spool.close();
      return 0;
    } finally {
      lock.unlock();
    }
  }

  private boolean isEmptyLocked() {
    return loaded.isEmpty() && memory.isEmpty() && (spool == null || spool.isEmpty());
  }

  private void spill() {
    List<LineEvent> lines = new ArrayList<>(memory);
    memory.clear();
    spool.append(lines);
    for (LineEvent line : lines) {
      metrics.of(line.host(), line.source()).spooled(1);
    }
  }

  private void dropOldest() {
    LineEvent lost = memory.pollFirst();
    metrics.of(lost.host(), lost.source()).dropped(1);
    long now = System.nanoTime();
    if (now - lastDropLogNanos > TimeUnit.SECONDS.toNanos(10)) {
      lastDropLogNanos = now;
      LOG.warn("memory buffer full ({} lines) and no spool dir: dropping the oldest lines (e.g. {} seq {})",
          memoryLines, new SourceId(lost.host(), lost.source()), lost.seq());
    }
  }
}
