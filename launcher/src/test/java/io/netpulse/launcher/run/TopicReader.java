package io.netpulse.launcher.run;

import io.netpulse.collector.ToolOutput;
import io.netpulse.common.Topics;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.LineRecords;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads back what a run published on {@code runs} and {@code tool-output}, from the start of each topic. */
final class TopicReader {

  private static final Duration READ_TIMEOUT = Duration.ofSeconds(20);

  private TopicReader() {}

  /**
   * A repetition's measuring window as its lifecycle gives it: from the MEASURING event's ts to the
   * ts of the phase after it (the processor's rule), with the SUT interface the run names.
   */
  record Window(String run, String test, int repetition, String iface, long startMs, long endMs) {
    long millis() {
      return endMs - startMs;
    }
  }

  /** The measuring window of each of {@code runIds}; waits until each has ended (DONE or FAILED). */
  static Map<String, Window> windows(String bootstrap, Collection<String> runIds) {
    List<RunEvent> events = read(bootstrap, Topics.defaults().runs(), RunEvent.class,
        all -> runIds.stream().allMatch(id -> all.stream().anyMatch(e -> id.equals(e.run())
            && (e.phase() == RunEvent.Phase.DONE || e.phase() == RunEvent.Phase.FAILED))));
    Map<String, Window> out = new HashMap<>();
    for (String id : runIds) {
      List<RunEvent> mine = events.stream().filter(e -> id.equals(e.run()))
          .sorted(Comparator.comparingLong(RunEvent::ts)).toList();
      RunEvent measuring = mine.stream().filter(e -> e.phase() == RunEvent.Phase.MEASURING).findFirst()
          .orElseThrow(() -> new AssertionError("no MEASURING event for " + id + " in " + mine));
      RunEvent next = mine.stream().filter(e -> e.ts() >= measuring.ts() && e.phase() != RunEvent.Phase.MEASURING)
          .findFirst().orElseThrow(() -> new AssertionError("no phase after MEASURING for " + id + " in " + mine));
      out.put(id, new Window(id, measuring.test(), measuring.repetition(), measuring.iface(), measuring.ts(),
          next.ts()));
    }
    return out;
  }

  /** The tool outputs of {@code runIds}, once there are {@code expected} of them. */
  static List<ToolOutput> toolOutputs(String bootstrap, Collection<String> runIds, int expected) {
    return read(bootstrap, Topics.defaults().toolOutput(), ToolOutput.class,
        all -> all.stream().filter(o -> runIds.contains(o.run())).count() >= expected)
        .stream().filter(o -> runIds.contains(o.run())).toList();
  }

  /** The lines streamed in {@code runIds}, read until the topic has been quiet for two seconds. */
  static List<LineEvent> lines(String bootstrap, Collection<String> runIds) {
    long[] quietSince = {System.nanoTime()};
    int[] seen = {-1};
    return read(bootstrap, Topics.defaults().lines(), LineRecords.deserializer(), all -> {
      if (all.size() != seen[0]) {
        seen[0] = all.size();
        quietSince[0] = System.nanoTime();
      }
      return !all.isEmpty() && System.nanoTime() - quietSince[0] > 2_000_000_000L;
    }).stream().flatMap(List::stream).filter(l -> runIds.contains(l.run())).toList();
  }

  private static <T> List<T> read(String bootstrap, String topic, Class<T> type, Predicate<List<T>> complete) {
    return read(bootstrap, topic, JsonSerde.of(type).deserializer(), complete);
  }

  private static <T> List<T> read(String bootstrap, String topic, Deserializer<T> values, Predicate<List<T>> complete) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "fidelity-test-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<T> all = new ArrayList<>();
    try (KafkaConsumer<String, T> c = new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      c.subscribe(List.of(topic));
      long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(500)).forEach(rec -> all.add(rec.value()));
        if (complete.test(all)) {
          return all;
        }
      }
    }
    throw new AssertionError("incomplete on " + topic + " after " + READ_TIMEOUT.toSeconds() + " s: " + all.size()
        + " records");
  }
}
