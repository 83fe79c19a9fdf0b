package io.netpulse.processor.window;

import io.netpulse.common.event.WideSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Per-second rows (keyed by host, the rows of one input record together) → 10-s tumbling windows per host and scope, each emitted once, when it closes: when
 * the host's own time (the newest row time it sent) passes the window's end plus the grace. A row for a closed window
 * is dropped. Windows close by each host's time, not the partition's, so a host whose rows arrive behind others' (a
 * collector's backlog after an outage) still gets whole windows.
 *
 * <p>State: one value per host ({@link HostOpenWindows}: every scope's open windows), written once per input record
 * (sar's block for one second: all its interfaces' rows; writing it per row was a third of the processor's CPU) into
 * a cached, changelogged store, so the changelog gets one record per host per commit. A window is removed from the
 * state in the same transaction as the record that emits it, so after a restart or failover the restored windows are
 * exactly those not yet emitted: each window goes out once, whole.
 *
 * <p>A host that sends nothing for {@link #IDLE} (wall clock) has stopped, or its collector cannot reach Kafka: its
 * open windows go out with what they hold, and its state keeps them closed, so that rows it sends later (a collector's
 * backlog) never open a window a second time. That state is dropped after {@link #FORGOTTEN_KEPT}.
 */
final class TenSecondWindowProcessor implements Processor<String, List<WideSample>, String, WideSample> {

  static final String STORE = "ten-second-windows";
  /** Long, so that a collector's backlog after a short outage still completes a host's windows. */
  static final Duration IDLE = Duration.ofMinutes(5);
  /** As long as a collector's spool could hold a host's lines back. */
  static final Duration FORGOTTEN_KEPT = Duration.ofHours(24);
  private static final Duration IDLE_CHECK_EVERY = Duration.ofSeconds(1);

  private final long graceMs;
  private final Map<String, HostOpenWindows> hosts = new HashMap<>();
  /** Wall clock of each host's latest row; not stored: after a restore every host counts as just seen. */
  private final Map<String, Long> lastRowWallMs = new HashMap<>();
  private ProcessorContext<String, WideSample> context;
  private KeyValueStore<String, HostOpenWindows> store;

  TenSecondWindowProcessor(Duration grace) {
    this.graceMs = grace.toMillis();
  }

  static StoreBuilder<KeyValueStore<String, HostOpenWindows>> storeBuilder() {
    // Cached: a host's value is put on every row and the cache sends only the last one per commit to the changelog.
    return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(),
        new HostOpenWindowsSerde()).withCachingEnabled();
  }

  @Override
  public void init(ProcessorContext<String, WideSample> context) {
    this.context = context;
    this.store = context.getStateStore(STORE);
    long now = context.currentSystemTimeMs();
    try (KeyValueIterator<String, HostOpenWindows> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, HostOpenWindows> kv = it.next();
        hosts.put(kv.key, kv.value);
        lastRowWallMs.put(kv.key, now);
      }
    }
    context.schedule(IDLE_CHECK_EVERY, PunctuationType.WALL_CLOCK_TIME, this::closeIdleHosts);
  }

  @Override
  public void process(Record<String, List<WideSample>> record) {
    if (record.value() == null) {
      return;
    }
    HostOpenWindows changed = null;
    for (WideSample row : record.value()) {
      if (row == null || row.summaryRow() || row.tags().get("host") == null) {
        continue; // a tool's whole-run summary is not a second's value
      }
      String name = row.tags().get("host");
      HostOpenWindows h = hosts.computeIfAbsent(name, HostOpenWindows::new);
      if (changed != null && h != changed) {
        store.put(changed.host, changed); // rows of another host in the same record: not from a collector
      }
      changed = h;
      lastRowWallMs.put(name, context.currentSystemTimeMs());
      h.idleSinceMs = 0;
      h.timeMs = Math.max(h.timeMs, row.time());
      // Windows this row closes go out with it, in the same transaction as the state without them.
      emit(h.host, h.takeClosed(graceMs));
      h.add(row, graceMs);
    }
    if (changed != null) {
      store.put(changed.host, changed);
    }
  }

  private void emit(String host, List<OpenWindow> windows) {
    for (OpenWindow w : windows) {
      context.forward(new Record<>(host, w.toRecord(), w.startMs));
    }
  }

  private void closeIdleHosts(long now) {
    List<String> drop = new ArrayList<>();
    for (HostOpenWindows h : hosts.values()) {
      long seen = lastRowWallMs.getOrDefault(h.host, now);
      if (h.idleSinceMs == 0 && now - seen >= IDLE.toMillis()) {
        emit(h.host, h.takeAll());
        h.idleSinceMs = now;
        store.put(h.host, h);
      } else if (h.idleSinceMs != 0 && now - h.idleSinceMs >= FORGOTTEN_KEPT.toMillis()) {
        drop.add(h.host);
      }
    }
    for (String host : drop) {
      store.delete(host);
      hosts.remove(host);
      lastRowWallMs.remove(host);
    }
  }

  /** For tests: the hosts held in memory. */
  int hostCount() {
    return hosts.size();
  }
}
