package io.netpulse.processor.topology;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Samples (keyed by host, so no repartition) → 1-s tumbling and 10-s hopping (1-s advance) rates per
 * host/iface/metric, in the samples' own time, with the same window semantics as Kafka Streams'
 * windowed aggregation: stream time is the largest sample time seen, a window accepts a sample
 * until stream time passes its end plus the grace, later samples are dropped.
 *
 * <p>Why not the DSL windowed aggregation: it made 11 window-store writes per sample (one per
 * window the sample falls in). Here each sample updates one per-second bucket, written once to a
 * cached, changelogged store (the cache keeps one changelog record per bucket per commit), and the
 * 10-s windows are summed from ten buckets when emitted. Changed windows are emitted every
 * {@code emitEvery} of wall-clock time rather than on every sample, and a 10-s window only once the
 * series has reached its last second (or the window has closed), then again if a late sample
 * changes it: one 10-s update per series and second instead of ten partial ones.
 *
 * <p>The store (changelogged, so a restart or failover restores it) is written once per sample and
 * never deleted from per bucket: a bucket's key is its series and its second modulo {@link #slots},
 * more seconds than a bucket lives, so a new second overwrites a long-expired one. That is one
 * changelog record per sample instead of three (put, put after emitting, delete at expiry; with the
 * store's cache ~2.3), and no cache (figures in the README's processor benchmark). A series that
 * stops deletes its slots once. Buckets are stored as they were on arrival, dirty marks included,
 * so after a restore the open windows of the last seconds are emitted again, whole, with the same
 * values: at least once, never lost, never partial. A window that closed before the commit a
 * restore starts from is not emitted again: its final value went out with the record that closed
 * it (same transaction), and its first seconds may no longer be in the store. Emitting it from
 * the store's marks gave windows of 1-9 seconds after every restart ({@code RateRestartTest}).
 */
final class RateProcessor implements Processor<String, Sample, String, RateEvent> {

  static final String STORE = "rate-buckets";
  private static final long SECOND_MS = 1000;
  private static final long TEN_MS = 10_000;

  private final long graceMs;
  /** store slots per series: a bucket lives at most 10 s + grace after its second, plus one to spare */
  private final int slots;
  private final Duration emitEvery;
  /** series key (host/iface/metric) → its buckets by start; the store's content, kept in objects */
  private final Map<String, TreeMap<Long, SecondBucket>> series = new HashMap<>();
  private final Set<String> dirtySeries = new HashSet<>();
  /** series whose next 10-s window waits for a later second or for its close: re-checked when a window closes */
  private final Set<String> waitingSeries = new HashSet<>();
  private long lastNewestClosedTen = Long.MIN_VALUE;
  private long lastEvictedBelowMs = Long.MIN_VALUE;
  private long streamTimeMs = Long.MIN_VALUE;
  /** the second the close time (stream time − grace) was in when windows were last emitted for closing */
  private long lastClosedSecond = Long.MIN_VALUE;
  private ProcessorContext<String, RateEvent> context;
  private KeyValueStore<String, SecondBucket> store;

  RateProcessor(Duration grace, Duration emitEvery) {
    this.graceMs = grace.toMillis();
    this.slots = (int) ((TEN_MS + graceMs + SECOND_MS - 1) / SECOND_MS) + 2;
    this.emitEvery = emitEvery;
  }

  static StoreBuilder<KeyValueStore<String, SecondBucket>> storeBuilder() {
    // In memory (changelogged, restored on restart): a bucket lives seconds. No cache: each bucket is written
    // once, so a cache would only add a sorted copy of every write.
    return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(), new SecondBucketSerde())
        .withCachingDisabled();
  }

  @Override
  public void init(ProcessorContext<String, RateEvent> context) {
    this.context = context;
    this.store = context.getStateStore(STORE);
    try (KeyValueIterator<String, SecondBucket> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, SecondBucket> kv = it.next();
        String key = seriesKeyOf(kv.key);
        series.computeIfAbsent(key, k -> new TreeMap<>()).put(kv.value.startMs, kv.value);
        streamTimeMs = Math.max(streamTimeMs, kv.value.startMs);
        if (kv.value.dirty()) {
          dirtySeries.add(key);
        }
      }
    }
    // slots not yet overwritten hold long-expired seconds: not emitted again
    long closeMs = streamTimeMs - graceMs;
    long expiredBelowMs = closeMs - TEN_MS;
    series.values().forEach(buckets -> buckets.headMap(expiredBelowMs, true).clear());
    series.values().removeIf(TreeMap::isEmpty);
    // A bucket's dirty marks are as they were when it was stored, when more of its 10-s windows were open. Those
    // that have closed since were emitted whole when they closed (see process), and their first seconds may be
    // gone now: emitting them again would send a window of a few seconds as if it were the whole.
    long firstOpenTen = firstOpenTen(closeMs);
    series.values().forEach(buckets -> buckets.values().forEach(b -> b.forgetTenBefore(firstOpenTen)));
    lastClosedSecond = Math.floorDiv(closeMs, SECOND_MS);
    context.schedule(emitEvery, PunctuationType.WALL_CLOCK_TIME, now -> emitAndEvict());
  }

  @Override
  public void process(Record<String, Sample> record) {
    Sample s = record.value();
    if (s == null || s.summary() || !Double.isFinite(s.value())) {
      return; // summary rows are the tool's whole-run figure, not a per-second value
    }
    long ts = s.ts() > 0 ? s.ts() : record.timestamp();
    streamTimeMs = Math.max(streamTimeMs, ts);
    long closeMs = streamTimeMs - graceMs;
    if (Math.floorDiv(closeMs, SECOND_MS) != lastClosedSecond) {
      // Windows closed by this record are emitted with it, not at the next wall-clock tick: a commit between the
      // two would keep the stream time that closed them and lose their last value (a restart does not re-emit a
      // closed window, whose first seconds may be gone from the store).
      lastClosedSecond = Math.floorDiv(closeMs, SECOND_MS);
      emitAndEvict();
    }
    long start = ts - Math.floorMod(ts, SECOND_MS);
    if (start + TEN_MS <= closeMs) {
      return; // every window holding this second has closed
    }
    String key = s.seriesKey();
    TreeMap<Long, SecondBucket> buckets = series.computeIfAbsent(key, k -> new TreeMap<>());
    SecondBucket b = buckets.get(start);
    if (b == null) {
      b = SecondBucket.of(s, start);
      buckets.put(start, b);
    }
    b.addToAll(s.value());
    if (start + SECOND_MS > closeMs) {
      b.addToSecond(s.value());
    }
    // the 10-s windows holding this second start at start-9 s .. start; the older ones may be closed
    b.markTenDirtyFrom(Math.max(start - TEN_MS + SECOND_MS, firstOpenTen(closeMs)));
    store.put(storeKey(key, start), b);
    dirtySeries.add(key);
  }

  private void emitAndEvict() {
    long closeMs = streamTimeMs - graceMs;
    // the newest 10-s window that has closed: it is emitted now even if its last second had no sample
    long newestClosedTen = Math.floorDiv(closeMs - TEN_MS, SECOND_MS) * SECOND_MS;
    // A waiting series can only become due through a new sample (then it is dirty) or a window closing: checking
    // every waiting series on every tick cost most of the punctuation.
    if (newestClosedTen != lastNewestClosedTen) {
      dirtySeries.addAll(waitingSeries);
      waitingSeries.clear();
      lastNewestClosedTen = newestClosedTen;
    }
    for (String key : dirtySeries) {
      TreeMap<Long, SecondBucket> buckets = series.get(key);
      if (buckets != null && emit(key, buckets, newestClosedTen)) {
        waitingSeries.add(key);
      }
    }
    dirtySeries.clear();
    long evictBelowMs = closeMs - TEN_MS;
    if (Math.floorDiv(evictBelowMs, SECOND_MS) == Math.floorDiv(lastEvictedBelowMs, SECOND_MS)) {
      return; // no second has expired since the last tick
    }
    lastEvictedBelowMs = evictBelowMs;
    for (Iterator<Map.Entry<String, TreeMap<Long, SecondBucket>>> it = series.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, TreeMap<Long, SecondBucket>> e = it.next();
      NavigableMap<Long, SecondBucket> expired = e.getValue().headMap(closeMs - TEN_MS, true);
      expired.clear(); // their slots are overwritten by later seconds
      if (e.getValue().isEmpty()) {
        for (int slot = 0; slot < slots; slot++) { // the series stopped: its slots go
          store.delete(slotKey(e.getKey(), slot));
        }
        it.remove();
      }
    }
  }

  /**
   * Emits the changed 1-s windows, and the changed 10-s windows that the series has reached (it
   * has a sample in their last second) or that have closed; a 10-s window still ahead of the series
   * waits, so a live series gives one 10-s update per second instead of ten.
   *
   * @return whether some 10-s windows wait for a later tick
   */
  private boolean emit(String key, TreeMap<Long, SecondBucket> buckets, long newestClosedTen) {
    long emitTenUpTo = Math.max(buckets.lastKey() - TEN_MS + SECOND_MS, newestClosedTen);
    TreeSet<Long> tenStarts = new TreeSet<>();
    boolean waiting = false;
    for (SecondBucket b : buckets.values()) {
      if (!b.dirty()) {
        continue;
      }
      if (b.secondDirty) {
        context.forward(new Record<>(key, b.secondRate(), b.startMs));
        b.secondDirty = false;
      }
      long last = Math.min(b.startMs, emitTenUpTo);
      for (long w = b.tenDirtyFromMs; w <= last; w += SECOND_MS) {
        tenStarts.add(w);
      }
      if (b.startMs > emitTenUpTo && b.tenDirtyFromMs != Long.MAX_VALUE) {
        b.tenDirtyFromMs = Math.max(b.tenDirtyFromMs, emitTenUpTo + SECOND_MS);
        waiting = true;
      } else {
        b.tenDirtyFromMs = Long.MAX_VALUE;
      }
    }
    for (long w : tenStarts) {
      context.forward(new Record<>(key, tenSecondRate(buckets.subMap(w, true, w + TEN_MS, false), w), w));
    }
    return waiting;
  }

  private static RateEvent tenSecondRate(NavigableMap<Long, SecondBucket> window, long startMs) {
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    long count = 0;
    SecondBucket any = null;
    for (SecondBucket b : window.values()) {
      sum += b.allSum;
      min = Math.min(min, b.allMin);
      max = Math.max(max, b.allMax);
      count += b.allCount;
      any = b;
    }
    return new RateEvent(RateEvent.SCHEMA, any.host, any.iface, any.metric, any.unit, "10s", startMs,
        startMs + TEN_MS, count == 0 ? 0 : sum / count, min, max, count);
  }

  /** Start of the earliest 10-s window still open when windows ending at or before {@code closeMs} have closed. */
  private static long firstOpenTen(long closeMs) {
    return Math.floorDiv(closeMs - TEN_MS, SECOND_MS) * SECOND_MS + SECOND_MS;
  }

  private String storeKey(String seriesKey, long startMs) {
    return slotKey(seriesKey, (int) Math.floorMod(Math.floorDiv(startMs, SECOND_MS), (long) slots));
  }

  private static String slotKey(String seriesKey, int slot) {
    return seriesKey + '@' + slot;
  }

  private static String seriesKeyOf(String storeKey) {
    return storeKey.substring(0, storeKey.lastIndexOf('@'));
  }
}
