package io.netpulse.processor.topology;

import static io.netpulse.processor.topology.RateWindows.SECOND_MS;
import static io.netpulse.processor.topology.RateWindows.TEN_MS;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
 * host/iface/metric, in the samples' own time, with the window semantics of Kafka Streams' windowed
 * aggregation applied per host ({@link HostWindows}): a host's stream time is the largest sample time it sent,
 * a window accepts a sample until that time passes its end plus the grace, later samples are dropped.
 *
 * <p>Why not the DSL windowed aggregation: it made 11 window-store writes per sample (one per
 * window the sample falls in), and its stream time is the partition's, shared by every host on it. Here
 * each sample updates one per-second bucket, written once to a changelogged store, and the 10-s windows
 * are summed from ten buckets when emitted. Changed windows are emitted every {@code emitEvery} of
 * wall-clock time rather than on every sample, and a 10-s window only once the series has reached its
 * last second (or the window has closed), then again if a late sample changes it: one 10-s update per
 * series and second instead of ten partial ones.
 *
 * <p>The store (changelogged, so a restart or failover restores it) is written once per sample and
 * never deleted from per bucket: a bucket's key is its series and its second modulo {@link #slots},
 * more seconds than a bucket lives, so a new second overwrites a long-expired one. That is one
 * changelog record per sample instead of three (put, put after emitting, delete at expiry; with the
 * store's cache ~2.3), and no cache (figures in docs/measurements/2026-11-30-processor.md). A series that
 * stops while its host goes on deletes its slots once. A host that sends nothing for {@link #IDLE}
 * (wall clock) has its waiting windows emitted with what they hold and its slots deleted; a marker
 * ({@code host@forgotten}) says up to which second its windows are closed, so that lines it sends later
 * (a collector's backlog) never re-open a window whose other seconds are gone.
 *
 * <p>Restarts: buckets are stored as they were on arrival, dirty marks included, so after a restore
 * the open windows of the last seconds are emitted again, whole, with the same values: at least
 * once, never lost, never partial. A window that closed before the commit a restore starts from is
 * not emitted again: its final value went out with the record that closed it (same transaction), and
 * its first seconds may no longer be in the store. Emitting it from the store's marks gave windows
 * of 1-9 seconds after every restart ({@code RateRestartTest}).
 */
final class RateProcessor implements Processor<String, Sample, String, RateEvent> {

  static final String STORE = "rate-buckets";
  /**
   * A host that sent nothing for this long (wall clock) has stopped, or its collector cannot reach Kafka: its last
   * windows go out as they are. Long, so that a collector's backlog after a short outage still completes them.
   */
  static final Duration IDLE = Duration.ofMinutes(5);
  /** How long a stopped host's marker is kept: as long as a collector's spool could hold its lines back. */
  static final Duration FORGOTTEN_KEPT = Duration.ofHours(24);
  private static final String FORGOTTEN = "@forgotten";

  private final long graceMs;
  /** store slots per series: a bucket lives at most 10 s + grace after its second, plus one to spare */
  private final int slots;
  private final Duration emitEvery;
  private final Map<String, HostWindows> hosts = new HashMap<>();
  /** hosts with a dirty series: the only ones a tick looks at */
  private final Set<HostWindows> dirtyHosts = new HashSet<>();
  /** host → the second its windows were closed through when it went idle, and when (wall clock) */
  private final Map<String, long[]> forgotten = new HashMap<>();
  private long lastIdleCheckMs;
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
    long now = context.currentSystemTimeMs();
    try (KeyValueIterator<String, SecondBucket> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, SecondBucket> kv = it.next();
        if (kv.key.endsWith(FORGOTTEN)) {
          forgotten.put(kv.value.host, new long[] {kv.value.startMs, (long) kv.value.allSum});
          continue;
        }
        HostWindows h = host(kv.value.host);
        String key = seriesKeyOf(kv.key);
        h.series.computeIfAbsent(key, k -> new TreeMap<>()).put(kv.value.startMs, kv.value);
        h.timeMs = Math.max(h.timeMs, kv.value.startMs);
      }
    }
    for (HostWindows h : hosts.values()) {
      restore(h, now);
    }
    context.schedule(emitEvery, PunctuationType.WALL_CLOCK_TIME, this::tick);
  }

  /**
   * A restored host: slots not yet overwritten hold long-expired seconds, which are not emitted again; a bucket's
   * dirty marks are as they were when it was stored, when more of its 10-s windows were open, and those that have
   * closed since were emitted whole when they closed (see {@link #process}).
   */
  private void restore(HostWindows h, long now) {
    long[] marker = forgotten.get(h.host);
    h.forgottenThroughMs = marker == null ? Long.MIN_VALUE : marker[0];
    long closeMs = h.closeMs(graceMs);
    long firstOpenTen = h.firstOpenTen(graceMs);
    for (Map.Entry<String, TreeMap<Long, SecondBucket>> e : h.series.entrySet()) {
      e.getValue().headMap(closeMs - TEN_MS, true).clear();
      for (SecondBucket b : e.getValue().values()) {
        b.forgetTenBefore(firstOpenTen);
        if (b.dirty()) {
          h.dirty.add(e.getKey());
        }
      }
    }
    h.series.values().removeIf(TreeMap::isEmpty);
    h.lastClosedSecond = Math.floorDiv(closeMs, SECOND_MS);
    h.lastSampleWallMs = now;
    if (!h.dirty.isEmpty()) {
      dirtyHosts.add(h);
    }
  }

  @Override
  public void process(Record<String, Sample> record) {
    Sample s = record.value();
    if (s == null || s.summary() || !Double.isFinite(s.value())) {
      return; // summary rows are the tool's whole-run figure, not a per-second value
    }
    HostWindows h = host(s.host());
    h.lastSampleWallMs = context.currentSystemTimeMs();
    long ts = s.ts() > 0 ? s.ts() : record.timestamp();
    h.timeMs = Math.max(h.timeMs, ts);
    long closeMs = h.closeMs(graceMs);
    if (Math.floorDiv(closeMs, SECOND_MS) != h.lastClosedSecond) {
      // Windows closed by this record are emitted with it, not at the next wall-clock tick: a commit between the
      // two would keep the time that closed them and lose their last value (a restart does not re-emit a closed
      // window, whose first seconds may be gone from the store).
      h.lastClosedSecond = Math.floorDiv(closeMs, SECOND_MS);
      emitAndEvict(h);
    }
    long start = RateWindows.secondOf(ts);
    if (start + TEN_MS <= closeMs || start <= h.forgottenThroughMs) {
      return; // every window holding this second has closed
    }
    String key = s.seriesKey();
    TreeMap<Long, SecondBucket> buckets = h.series.computeIfAbsent(key, k -> new TreeMap<>());
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
    long firstDirty = Math.max(start - TEN_MS + SECOND_MS, h.firstOpenTen(graceMs));
    if (firstDirty <= start) {
      b.markTenDirtyFrom(firstDirty);
    }
    store.put(storeKey(key, start), b);
    h.dirty.add(key);
    dirtyHosts.add(h);
  }

  private HostWindows host(String host) {
    String name = String.valueOf(host);
    return hosts.computeIfAbsent(name, n -> {
      HostWindows h = new HostWindows(n);
      long[] marker = forgotten.get(n);
      h.forgottenThroughMs = marker == null ? Long.MIN_VALUE : marker[0];
      return h;
    });
  }

  private void tick(long now) {
    for (HostWindows h : dirtyHosts) {
      emit(h);
    }
    dirtyHosts.clear();
    if (now - lastIdleCheckMs >= SECOND_MS) {
      lastIdleCheckMs = now;
      forgetIdleHosts(now);
    }
  }

  private void emitAndEvict(HostWindows h) {
    emit(h);
    long closeMs = h.closeMs(graceMs);
    long evictBelowMs = closeMs - TEN_MS;
    if (Math.floorDiv(evictBelowMs, SECOND_MS) == h.lastEvictedSecond) {
      return; // no second has expired since the last time
    }
    h.lastEvictedSecond = Math.floorDiv(evictBelowMs, SECOND_MS);
    for (Iterator<Map.Entry<String, TreeMap<Long, SecondBucket>>> it = h.series.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, TreeMap<Long, SecondBucket>> e = it.next();
      e.getValue().headMap(evictBelowMs, true).clear(); // their slots are overwritten by later seconds
      if (e.getValue().isEmpty()) {
        deleteSlots(e.getKey()); // the series stopped while its host goes on
        h.waiting.remove(e.getKey());
        it.remove();
      }
    }
    if (h.forgottenThroughMs != Long.MIN_VALUE && evictBelowMs > h.forgottenThroughMs) {
      // the host's own clock now closes every window the marker closed
      store.delete(h.host + FORGOTTEN);
      forgotten.remove(h.host);
      h.forgottenThroughMs = Long.MIN_VALUE;
    }
  }

  /** Emits the host's changed windows, and the waiting ones a window closing has made due. */
  private void emit(HostWindows h) {
    long newestClosedTen = RateWindows.newestClosedTen(h.closeMs(graceMs));
    // A waiting series can only become due through a new sample (then it is dirty) or a window closing: checking
    // every waiting series on every tick cost most of the punctuation.
    if (newestClosedTen != h.lastNewestClosedTen) {
      h.dirty.addAll(h.waiting);
      h.waiting.clear();
      h.lastNewestClosedTen = newestClosedTen;
    }
    for (String key : h.dirty) {
      TreeMap<Long, SecondBucket> buckets = h.series.get(key);
      if (buckets != null && emit(key, buckets, newestClosedTen)) {
        h.waiting.add(key);
      }
    }
    h.dirty.clear();
  }

  /**
   * A host idle for {@link #IDLE} has stopped (or its collector cannot reach Kafka): its waiting windows go out
   * with what they hold, its slots are deleted, and a marker keeps every window up to its last second closed.
   */
  private void forgetIdleHosts(long now) {
    List<HostWindows> idle = new ArrayList<>();
    for (HostWindows h : hosts.values()) {
      if (now - h.lastSampleWallMs >= IDLE.toMillis()) {
        idle.add(h);
      }
    }
    for (HostWindows h : idle) {
      long lastSecond = RateWindows.secondOf(h.timeMs);
      for (Map.Entry<String, TreeMap<Long, SecondBucket>> e : h.series.entrySet()) {
        emit(e.getKey(), e.getValue(), lastSecond);
        deleteSlots(e.getKey());
      }
      SecondBucket marker = new SecondBucket(h.host, null, "forgotten", null, lastSecond);
      marker.allSum = now;
      store.put(h.host + FORGOTTEN, marker);
      forgotten.put(h.host, new long[] {lastSecond, now});
      hosts.remove(h.host);
      dirtyHosts.remove(h);
    }
    forgotten.entrySet().removeIf(e -> {
      boolean expired = !hosts.containsKey(e.getKey()) && now - e.getValue()[1] >= FORGOTTEN_KEPT.toMillis();
      if (expired) {
        store.delete(e.getKey() + FORGOTTEN);
      }
      return expired;
    });
  }

  private void deleteSlots(String seriesKey) {
    for (int slot = 0; slot < slots; slot++) {
      store.delete(slotKey(seriesKey, slot));
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
      context.forward(new Record<>(key, RateWindows.tenSecondRate(buckets.subMap(w, true, w + TEN_MS, false), w), w));
    }
    return waiting;
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
