package io.netpulse.processor.run;

import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Deleting the entries of a store that have expired, for processors that keep per-run state. */
final class StoreEviction {

  private static final char SEP = '\u0001';

  private StoreEviction() {}

  /**
   * Deletes the stored samples (keyed run, U+0001, ...) no window can still want: every sample of a run whose state
   * is gone, and of a kept run those older than {@code horizon} that lie outside each of its repetitions' windows
   * widened by {@code marginMs} (an open window reaches to now). A sample's own time is not enough: a window open
   * longer than the retention (a test of an hour) would lose its first samples before it closes and be valued on its
   * last half hour; and the sampler's clock is not the clock stream time also runs on (lifecycle events are stamped
   * by the launcher's).
   */
  static void deleteSamples(KeyValueStore<String, Sample> samples, long horizon, long marginMs,
      Function<String, Collection<RepetitionState>> repetitionsOfRun) {
    Map<String, Optional<Collection<RepetitionState>>> runs = new HashMap<>(); // empty: the run's state is gone
    List<String> old = new ArrayList<>();
    try (KeyValueIterator<String, Sample> it = samples.all()) {
      while (it.hasNext()) {
        KeyValue<String, Sample> kv = it.next();
        String run = runOf(kv.key);
        Optional<Collection<RepetitionState>> reps =
            runs.computeIfAbsent(run, r -> Optional.ofNullable(repetitionsOfRun.apply(r)));
        long ts = kv.value.ts();
        boolean wanted = reps.isPresent() && (ts >= horizon || reps.get().stream().anyMatch(rep -> rep.start > 0
            && ts >= rep.start - marginMs && (rep.end == 0 || ts <= rep.end + marginMs)));
        if (!wanted) {
          old.add(kv.key);
        }
      }
    }
    old.forEach(samples::delete);
  }

  /** The run of a per-run store's key: keys are the run, or the run and more after U+0001. */
  static String runOf(String key) {
    int sep = key.indexOf(SEP);
    return sep < 0 ? key : key.substring(0, sep);
  }

  /** Deletes every entry whose value {@code expired} accepts (keys collected first: no deleting under an open iterator). */
  static <K, V> void deleteWhere(KeyValueStore<K, V> store, Predicate<V> expired) {
    deleteWhere(store, (k, v) -> expired.test(v));
  }

  /** Deletes every entry {@code expired} accepts by key and value. */
  static <K, V> void deleteWhere(KeyValueStore<K, V> store, BiPredicate<K, V> expired) {
    List<K> old = new ArrayList<>();
    try (KeyValueIterator<K, V> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<K, V> kv = it.next();
        if (expired.test(kv.key, kv.value)) {
          old.add(kv.key);
        }
      }
    }
    old.forEach(store::delete);
  }
}
