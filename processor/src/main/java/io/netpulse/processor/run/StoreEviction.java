package io.netpulse.processor.run;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Deleting the entries of a store that have expired, for processors that keep per-run state. */
final class StoreEviction {

  private StoreEviction() {}

  /** Deletes every entry whose value {@code expired} accepts (keys collected first: no deleting under an open iterator). */
  static <K, V> void deleteWhere(KeyValueStore<K, V> store, Predicate<V> expired) {
    List<K> old = new ArrayList<>();
    try (KeyValueIterator<K, V> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<K, V> kv = it.next();
        if (expired.test(kv.value)) {
          old.add(kv.key);
        }
      }
    }
    old.forEach(store::delete);
  }
}
