package io.netpulse.collector;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/** Per-source counters shared by the sources, the buffer and the Kafka sink; read with {@link #snapshot()}. */
public final class CollectorMetrics {

  private final ConcurrentMap<SourceId, Counters> bySource = new ConcurrentHashMap<>();

  /** Live counters of one source; created on first use. */
  public Counters of(String host, String source) {
    return bySource.computeIfAbsent(new SourceId(host, source), id -> new Counters());
  }

  public List<SourceStats> snapshot() {
    return bySource.entrySet().stream()
        .map(e -> e.getValue().stats(e.getKey()))
        .sorted(Comparator.comparing(s -> s.id().toString()))
        .toList();
  }

  /** Stats of one source, all zero when it never counted anything. */
  public SourceStats stats(String host, String source) {
    return of(host, source).stats(new SourceId(host, source));
  }

  /** Mutable counters; LongAdder because many reader threads count at once. */
  public static final class Counters {
    final LongAdder read = new LongAdder();
    final LongAdder sent = new LongAdder();
    final LongAdder spooled = new LongAdder();
    final LongAdder dropped = new LongAdder();
    final LongAdder restarts = new LongAdder();
    final LongAdder gaps = new LongAdder();
    final LongAdder gapMillis = new LongAdder();
    final LongAdder restartGaps = new LongAdder();
    final LongAdder restartGapMillis = new LongAdder();

    public void read() {
      read.increment();
    }

    public void sent(long n) {
      sent.add(n);
    }

    public void spooled(long n) {
      spooled.add(n);
    }

    public void dropped(long n) {
      dropped.add(n);
    }

    public void restarted() {
      restarts.increment();
    }

    public void gap(long millis) {
      gaps.increment();
      gapMillis.add(millis);
    }

    /** The first line after a collector restart came {@code millis} after the previous start's last line. */
    public void restartGap(long millis) {
      restartGaps.increment();
      restartGapMillis.add(millis);
    }

    SourceStats stats(SourceId id) {
      return new SourceStats(id, read.sum(), sent.sum(), spooled.sum(), dropped.sum(), restarts.sum(),
          gaps.sum(), gapMillis.sum(), restartGaps.sum(), restartGapMillis.sum());
    }
  }
}
