package io.netpulse.processor.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.WideSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A restart at any point gives the windows an uninterrupted run gives, each exactly once. With exactly-once, a
 * restarted task has the store as of its last commit and reads the input again from there; what the old instance
 * emitted after that commit was aborted. So the first instance's emissions up to the commit and everything the
 * second one emits must be, window for window, what one instance emits, and no window may come twice.
 */
@Tag("unit")
class WindowRestartTest {

  private static final long T0 = 1_796_014_830_000L;
  private static final Duration GRACE = WindowTopology.DEFAULT_GRACE;
  private static final long WALL_START = 1_800_000_000_000L;

  @Test
  void aRestartAfterAnyRowGivesEachWindowOfAnUninterruptedRunOnce() {
    List<List<WideSample>> records = rows(new Random(7), 45).stream().map(List::of).toList();
    List<WideSample> uninterrupted = assertEveryRestartGivesTheWindowsOfAnUninterruptedRun(records);
    assertThat(uninterrupted).as("two hosts, two interfaces, five windows each").hasSize(20);
  }

  @Test
  void aRestartAfterAnyRecordOfSeveralRowsGivesEachWindowOfAnUninterruptedRunOnce() {
    // as the parse step sends them: the rows of one input record (a host's second: its interfaces) together
    List<List<WideSample>> records = new ArrayList<>();
    for (WideSample row : rows(new Random(9), 45)) {
      List<WideSample> last = records.isEmpty() ? null : records.get(records.size() - 1);
      if (last != null && last.get(0).tags().get("host").equals(row.tags().get("host"))
          && last.get(0).time() == row.time()) {
        last.add(row);
      } else {
        records.add(new ArrayList<>(List.of(row)));
      }
    }
    assertThat(records).anyMatch(r -> r.size() > 1);
    assertEveryRestartGivesTheWindowsOfAnUninterruptedRun(records);
  }

  /** A restart after each record in turn; returns the uninterrupted run's windows. */
  private static List<WideSample> assertEveryRestartGivesTheWindowsOfAnUninterruptedRun(List<List<WideSample>> records) {
    List<WideSample> uninterrupted = new Instance(List.of()).run(records, 0, records.size()).closeAll().emitted;
    for (int commitAt = 1; commitAt < records.size(); commitAt++) {
      Instance first = new Instance(List.of()).run(records, 0, commitAt);
      Instance second = new Instance(first.snapshot()).run(records, commitAt, records.size()).closeAll();
      List<WideSample> seen = new ArrayList<>(first.emitted);
      seen.addAll(second.emitted);
      assertThat(seen).as("windows after a restart at record %d", commitAt)
          .containsExactlyInAnyOrderElementsOf(uninterrupted);
    }
    return uninterrupted;
  }

  /**
   * Two hosts, each with two interfaces and a TCP table a second; the second host 15 s behind the first (a backlog),
   * and every fifth second one row 3 s late (within the grace) and one 20 s late (its window closed).
   */
  private static List<WideSample> rows(Random random, int seconds) {
    List<WideSample> out = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      for (String host : List.of("a", "b")) {
        long t = T0 + (host.equals("a") ? s : s - 15) * 1000L + 200;
        out.add(WindowTopologyTest.net(host, "eth0", t, 1000 + random.nextInt(1000), 10 + random.nextInt(10)));
        out.add(WindowTopologyTest.net(host, "eth1", t, random.nextInt(50), 1));
        if (s % 5 == 4) {
          out.add(WindowTopologyTest.net(host, "eth0", t - 3_000 + 500, 5000 + random.nextInt(100), 1));
          out.add(WindowTopologyTest.net(host, "eth0", t - 20_000 + 500, 7777, 1));
        }
      }
    }
    return out;
  }

  /** One instance of the processor with its own store, as a stream task would run it. */
  private static final class Instance {
    final MockProcessorContext<String, WideSample> context = new MockProcessorContext<>();
    final KeyValueStore<String, HostOpenWindows> store;
    final TenSecondWindowProcessor processor = new TenSecondWindowProcessor(GRACE);
    final List<WideSample> emitted = new ArrayList<>();

    Instance(List<KeyValue<String, HostOpenWindows>> restored) {
      store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TenSecondWindowProcessor.STORE),
          Serdes.String(), new HostOpenWindowsSerde()).withLoggingDisabled().withCachingDisabled().build();
      store.init(context.getStateStoreContext(), store);
      context.addStateStore(store);
      context.setCurrentSystemTimeMs(WALL_START);
      restored.forEach(kv -> store.put(kv.key, kv.value));
      processor.init(context);
    }

    Instance run(List<List<WideSample>> records, int from, int to) {
      for (int i = from; i < to; i++) {
        List<WideSample> rows = records.get(i);
        processor.process(new Record<>(rows.get(0).tags().get("host"), rows, rows.get(0).time()));
        collect();
      }
      return this;
    }

    /** The hosts go quiet: the idle check sends every window still open. */
    Instance closeAll() {
      long now = context.currentSystemTimeMs() + TenSecondWindowProcessor.IDLE.toMillis();
      context.setCurrentSystemTimeMs(now);
      context.scheduledPunctuators().forEach(p -> p.getPunctuator().punctuate(now));
      collect();
      return this;
    }

    private void collect() {
      context.forwarded().forEach(f -> emitted.add(f.record().value()));
      context.resetForwards();
    }

    /** The store as a commit leaves it, read back through the serde as a restore would. */
    List<KeyValue<String, HostOpenWindows>> snapshot() {
      List<KeyValue<String, HostOpenWindows>> out = new ArrayList<>();
      try (KeyValueIterator<String, HostOpenWindows> it = store.all()) {
        it.forEachRemaining(out::add);
      }
      return out;
    }
  }
}
