package io.netpulse.processor.topology;

import io.netpulse.common.event.LineEvent;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcStatParser;
import io.netpulse.tools.proc.ProcStatParser.Row;
import io.netpulse.tools.proc.ProcStatParser.Times;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * CPU use from streamed {@code /proc/stat} CPU lines (the launcher's CPU sampler, and the collector's {@code proc-stat}
 * sampler): a line holds cumulative ticks, so each is set against the same host's and CPU's previous line, kept in a
 * state store. The first line of a CPU, one more than {@link #MAX_GAP_MS} after the last (a restarted sampler), and
 * one of another run than the last (the next repetition's sampler: the gap between them is set-up time, not its own)
 * only set the baseline.
 */
final class ProcStatCpu {

  static final String STORE = "proc-stat-ticks";
  static final long MAX_GAP_MS = 5_000;

  /** A CPU's last ticks, when its line was read, and under which run. */
  record Reading(long ts, String run, Times times) {}

  private final KeyValueStore<String, Reading> store;

  ProcStatCpu(KeyValueStore<String, Reading> store) {
    this.store = store;
  }

  static StoreBuilder<KeyValueStore<String, Reading>> storeBuilder() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(),
        ProcessorSerdes.json(Reading.class));
  }

  /** Samples of one streamed line (stamped with the line's time), or why it gives none. */
  ParseResult parse(LineEvent line) {
    Row row = ProcStatParser.row(line.line().strip(), 0);
    if (row.error() != null) {
      return ParseResult.error(row.error());
    }
    if (row.times() == null) {
      return ParseResult.empty();
    }
    String key = line.host() + "\u0000" + row.cpu();
    Reading before = store.get(key);
    if (before != null && line.ts() < before.ts() && Objects.equals(before.run(), line.run())) {
      return ParseResult.error(new ParseError(0, row.cpu(), "read earlier than the line before it: no use"));
    }
    store.put(key, new Reading(line.ts(), line.run(), row.times()));
    if (before == null || line.ts() - before.ts() > MAX_GAP_MS || !Objects.equals(before.run(), line.run())) {
      return ParseResult.empty();
    }
    return ProcStatParser.use(row.cpu(), before.times(), row.times(), line.ts(), 0);
  }

  static boolean handles(LineEvent line) {
    return ProcStatParser.FORMAT.equals(line.source());
  }
}
