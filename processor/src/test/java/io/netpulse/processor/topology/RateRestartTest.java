package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.Sample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * A restart at any point gives the rates an uninterrupted run gives. With exactly-once, a restarted task
 * has the store as of its last commit and reads the input again from there; what the old instance
 * emitted after that commit was aborted. So a reader that keeps the last record per window sees the
 * committed emissions of the first instance, then everything the second one emits: that must equal an
 * uninterrupted run, window by window (mean, min, max, count).
 *
 * <p>The commit point is placed after a record is processed and before the wall-clock tick that follows
 * it, the order in which a stream thread can commit a record whose windows the tick would have closed.
 * An operator found re-emitted 10-s windows with count 1-9 and another mean after every restart.
 */
@Tag("unit")
class RateRestartTest {

  private static final long T0 = 1_796_014_834_000L; // a whole second
  private static final Duration GRACE = RateTopology.DEFAULT_GRACE;
  private static final Duration EMIT_EVERY = RateTopology.DEFAULT_EMIT_EVERY;
  private static final long WALL_START = 1_800_000_000_000L;

  /** One record in arrival order and whether a wall-clock tick follows it. */
  private record Step(Sample sample, boolean tickAfter) {}

  @Test
  void aRestartAfterAnyRecordGivesTheRatesOfAnUninterruptedRun() {
    List<Step> steps = steps(new Random(7), 60, false);
    Map<String, RateEvent> uninterrupted = new Instance(List.of()).run(steps, 0, steps.size(), true).visible;
    assertThat(uninterrupted.keySet()).as("the run emits 1-s and 10-s windows").hasSizeGreaterThan(300);
    for (int commitAt = 1; commitAt < steps.size(); commitAt++) {
      assertRestartAt(steps, commitAt, uninterrupted);
    }
  }

  @Test
  void aRestartWithLateSamplesInFlightGivesTheRatesOfAnUninterruptedRun() {
    List<Step> steps = steps(new Random(11), 50, true);
    Map<String, RateEvent> uninterrupted = new Instance(List.of()).run(steps, 0, steps.size(), true).visible;
    for (int commitAt = 1; commitAt < steps.size(); commitAt++) {
      assertRestartAt(steps, commitAt, uninterrupted);
    }
  }

  @Test
  void aRestartWithOneHostLaggingAnotherByTwentyFiveSecondsGivesTheRatesOfAnUninterruptedRun() {
    // a backlog being sent after an outage: host b's seconds arrive 25 s behind host a's, interleaved
    List<Step> a = steps(new Random(5), 60, true);
    List<Step> b = steps(new Random(6), 60, false).stream()
        .map(st -> new Step(st.sample().withOrigin("backlog", null, Sources.SAR_DEV), st.tickAfter())).toList();
    List<Step> steps = new ArrayList<>();
    int j = 0;
    for (Step st : a) {
      steps.add(st);
      while (j < b.size() && b.get(j).sample().ts() + 25_000 <= st.sample().ts()) {
        steps.add(b.get(j++));
      }
    }
    steps.addAll(b.subList(j, b.size()));
    Map<String, RateEvent> uninterrupted = new Instance(List.of()).run(steps, 0, steps.size(), true).visible;
    assertThat(uninterrupted.keySet()).as("the lagging host's windows").anyMatch(k -> k.startsWith("backlog/"));
    for (int commitAt = 1; commitAt < steps.size(); commitAt += 3) {
      assertRestartAt(steps, commitAt, uninterrupted);
    }
  }

  @Test
  void everyWindowEmittedAfterARestartIsWhole() {
    // in-order samples, one per series and second: every emitted window holds every second it covers
    List<Step> steps = steps(new Random(3), 40, false);
    for (int commitAt = 1; commitAt < steps.size(); commitAt += 7) {
      Instance first = new Instance(List.of()).run(steps, 0, commitAt, false);
      Instance second = new Instance(first.snapshot()).run(steps, commitAt, steps.size(), true);
      for (RateEvent e : second.emitted) {
        long seconds = (e.windowEnd() - e.windowStart()) / 1000;
        long lastSecond = (steps.get(steps.size() - 1).sample().ts() / 1000) * 1000;
        long firstSecond = T0;
        long covered = Math.min(e.windowEnd(), lastSecond + 1000) - Math.max(e.windowStart(), firstSecond);
        assertThat(e.count()).as("count of %s window %d after a restart at record %d", e.window(), e.windowStart(),
            commitAt).isEqualTo(Math.min(seconds, covered / 1000));
      }
    }
  }

  @Test
  void aLateSampleInAWindowTheNextRecordClosesIsNotLostToACommitBeforeTheTick() {
    List<Step> steps = new ArrayList<>();
    for (int s = 0; s < 30; s++) {
      steps.add(new Step(sample("rx_bps", 1000 + s, T0 + s * 1000L + 500), s != 20 && s != 21));
      if (s == 20) {
        // 9 s late, within 10 s + grace: it changes the 10-s windows from second 6 (still open) to 11
        steps.add(new Step(sample("rx_bps", 9000, T0 + 11_600), false));
      }
    }
    Map<String, RateEvent> uninterrupted = new Instance(List.of()).run(steps, 0, steps.size(), true).visible;
    int afterSecond21 = 23; // 21 on-time records, the late one, then second 21's record, which closes window 6
    assertThat(steps.get(afterSecond21 - 1).sample().ts()).isEqualTo(T0 + 21_500);
    assertThat(uninterrupted.get("sut/eth0/rx_bps|10s|" + (T0 + 6000)).count()).isEqualTo(11);
    assertRestartAt(steps, afterSecond21, uninterrupted);
  }

  private static void assertRestartAt(List<Step> steps, int commitAt, Map<String, RateEvent> uninterrupted) {
    Instance first = new Instance(List.of()).run(steps, 0, commitAt, false);
    Map<String, RateEvent> seen = new LinkedHashMap<>(first.visible);
    Instance second = new Instance(first.snapshot()).run(steps, commitAt, steps.size(), true);
    seen.putAll(second.visible);
    assertThat(seen.keySet()).as("windows after a restart at record %d", commitAt)
        .containsExactlyInAnyOrderElementsOf(uninterrupted.keySet());
    for (Map.Entry<String, RateEvent> e : uninterrupted.entrySet()) {
      RateEvent want = e.getValue();
      RateEvent got = seen.get(e.getKey());
      assertThat(new double[] {got.mean(), got.min(), got.max(), got.count()})
          .as("window %s after a restart at record %d", e.getKey(), commitAt)
          .containsExactly(want.mean(), want.min(), want.max(), want.count());
    }
  }

  /**
   * Three series, one sample a second each at their own phase; with {@code late}, every seventh second one
   * series also gets a sample for three seconds back (within the grace), which changes windows already emitted.
   */
  private static List<Step> steps(Random random, int seconds, boolean late) {
    List<Step> out = new ArrayList<>();
    String[] metrics = {"rx_pps", "rx_bps", "tx_pps"};
    long[] phase = {120, 480, 910};
    for (int s = 0; s < seconds; s++) {
      for (int m = 0; m < metrics.length; m++) {
        long ts = T0 + s * 1000L + phase[m];
        out.add(new Step(sample(metrics[m], 1000 + random.nextInt(1000), ts), random.nextInt(3) == 0));
      }
      if (late && s % 7 == 6) {
        out.add(new Step(sample("rx_bps", 5000 + random.nextInt(100), T0 + (s - 3) * 1000L + 700), random.nextBoolean()));
      }
    }
    return out;
  }

  private static Sample sample(String metric, double value, long ts) {
    return Sample.of(metric, value, "packets/s", "eth0", ts).withOrigin("sut", null, Sources.SAR_DEV);
  }

  /** One instance of the processor with its own store, as a stream task would run it. */
  private static final class Instance {
    final MockProcessorContext<String, RateEvent> context = new MockProcessorContext<>();
    final KeyValueStore<String, SecondBucket> store;
    final RateProcessor processor = new RateProcessor(GRACE, EMIT_EVERY);
    /** the last emission per window, as a compacting reader keeps it */
    final Map<String, RateEvent> visible = new LinkedHashMap<>();
    final List<RateEvent> emitted = new ArrayList<>();

    Instance(List<KeyValue<String, SecondBucket>> restored) {
      store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(RateProcessor.STORE), Serdes.String(),
          new SecondBucketSerde()).withLoggingDisabled().withCachingDisabled().build();
      store.init(context.getStateStoreContext(), store);
      context.addStateStore(store);
      context.setCurrentSystemTimeMs(WALL_START);
      restored.forEach(kv -> store.put(kv.key, kv.value));
      processor.init(context);
    }

    /**
     * Processes steps [from, to); with {@code toTheEnd} the tick after the last step too, else the instance
     * stops (commits) after its last record and before that record's tick.
     */
    Instance run(List<Step> steps, int from, int to, boolean toTheEnd) {
      for (int i = from; i < to; i++) {
        Sample s = steps.get(i).sample();
        processor.process(new Record<>("sut", s, s.ts()));
        collect();
        if (steps.get(i).tickAfter() && (toTheEnd || i < to - 1)) {
          tick();
        }
      }
      if (toTheEnd) {
        tick();
      }
      return this;
    }

    /** A wall-clock tick, 100 ms after the previous one. */
    void tick() {
      long now = context.currentSystemTimeMs() + EMIT_EVERY.toMillis();
      context.setCurrentSystemTimeMs(now);
      context.scheduledPunctuators().forEach(p -> p.getPunctuator().punctuate(now));
      collect();
    }

    private void collect() {
      for (MockProcessorContext.CapturedForward<? extends String, ? extends RateEvent> f : context.forwarded()) {
        RateEvent e = f.record().value();
        emitted.add(e);
        visible.put(f.record().key() + "|" + e.window() + "|" + e.windowStart(), e);
      }
      context.resetForwards();
    }

    /** The store as a commit leaves it (values read back through the serde, as a restore would). */
    List<KeyValue<String, SecondBucket>> snapshot() {
      List<KeyValue<String, SecondBucket>> out = new ArrayList<>();
      try (KeyValueIterator<String, SecondBucket> it = store.all()) {
        it.forEachRemaining(out::add);
      }
      return out;
    }
  }
}
