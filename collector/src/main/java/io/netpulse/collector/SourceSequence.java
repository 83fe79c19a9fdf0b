package io.netpulse.collector;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Sequence numbers of one source. Without a {@link SequenceStore} they start at 0 and live in memory (the launcher's
 * tool runs). With one they go on from the previous collector start: numbers are reserved in blocks, and a block is
 * on disk before its first number is handed out, so a start after SIGKILL begins past anything the killed one used.
 */
public final class SourceSequence {

  /** What the previous start recorded of this source: the last line it read. */
  public record PreviousStart(long epoch, long lastSeq, long lastReadMs) {}

  /**
   * The last line numbered and the start that numbered it, as one value so that a snapshot never pairs one line's seq
   * with another's read time.
   */
  record Last(long epoch, long seq, long readMs) {}

  private final SequenceStore store; // null: in memory only
  private final SourceId id;
  private final AtomicReference<PreviousStart> previous;
  private long next; // guarded by this
  private volatile long reservedUntil; // exclusive; raised under this lock, read by the store's snapshots
  private volatile Last last;

  private SourceSequence(SequenceStore store, SourceId id, long next, Last last, PreviousStart previous) {
    this.store = store;
    this.id = id;
    this.next = next;
    this.reservedUntil = next;
    this.last = last;
    this.previous = new AtomicReference<>(previous);
  }

  /** Numbers from 0 in memory, no epoch. */
  public static SourceSequence fromZero(String host, String source) {
    return new SourceSequence(null, new SourceId(host, source), 0, null, null);
  }

  static SourceSequence stored(SequenceStore store, SourceId id, long next, Last last, PreviousStart previous) {
    return new SourceSequence(store, id, next, last, previous);
  }

  /** The number of a line read at {@code readMs}; reserves (and writes) the next block first when needed. */
  public synchronized long next(long readMs) {
    if (store != null && next >= reservedUntil) {
      reservedUntil = next + store.blockSize();
      store.persistReservation(id);
    }
    long seq = next++;
    last = new Last(store == null ? 0 : store.epoch(), seq, readMs);
    return seq;
  }

  /** The previous start's last line of this source, once (for the first line of this start), else null. */
  public PreviousStart takePreviousStart() {
    return previous.get() == null ? null : previous.getAndSet(null);
  }

  /** The collector start numbering these lines (epoch ms of that start), null in memory. */
  public Long epoch() {
    return store == null ? null : store.epoch();
  }

  /** The number the next line gets. */
  public synchronized long peekNext() {
    return next;
  }

  /** The last number handed out, -1 before the first. */
  public long lastSeq() {
    Last l = last;
    return l == null ? -1 : l.seq();
  }

  /** At a clean stop: hand back the unused numbers of the block, so that the next start goes on without a jump. */
  synchronized void release() {
    reservedUntil = next;
  }

  SourceId id() {
    return id;
  }

  long reservedUntil() {
    return reservedUntil;
  }

  Last last() {
    return last;
  }
}
