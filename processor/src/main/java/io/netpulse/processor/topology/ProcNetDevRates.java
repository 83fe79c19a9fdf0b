package io.netpulse.processor.topology;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcNetDevParser;
import io.netpulse.tools.proc.ProcNetDevParser.Counters;
import io.netpulse.tools.proc.ProcNetDevParser.Row;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Rates from streamed {@code /proc/net/dev} rows (the sampler of hosts without sysstat): a row holds cumulative
 * counters, so each is set against the same host's and interface's previous row, kept in a state store, and the
 * difference over the time between the two lines (the collector's read times) is the rate. The first row of an
 * interface, and one more than {@link #MAX_GAP_MS} after the last (a restarted sampler), only sets the baseline:
 * a rate over a long gap stamped as one second would skew per-second windows.
 */
final class ProcNetDevRates {

  static final String STORE = "proc-net-dev-counters";
  static final long MAX_GAP_MS = 5_000;

  /** An interface's last counters and when its line was read. */
  record Reading(long ts, Counters counters) {}

  private final KeyValueStore<String, Reading> store;

  ProcNetDevRates(KeyValueStore<String, Reading> store) {
    this.store = store;
  }

  static StoreBuilder<KeyValueStore<String, Reading>> storeBuilder() {
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(),
        ProcessorSerdes.json(Reading.class));
  }

  /** Samples of one streamed line (stamped with the line's time), or why it gives none. */
  ParseResult parse(LineEvent line) {
    Row row = ProcNetDevParser.row(line.line().strip(), 0);
    if (row.error() != null) {
      return ParseResult.error(row.error());
    }
    if (row.counters() == null) {
      return ParseResult.empty();
    }
    String key = line.host() + "\u0000" + row.iface();
    Reading before = store.get(key);
    store.put(key, new Reading(line.ts(), row.counters()));
    if (before == null || line.ts() - before.ts() > MAX_GAP_MS) {
      return ParseResult.empty();
    }
    if (line.ts() <= before.ts()) {
      return ParseResult.error(new ParseError(0, row.iface(), "read no later than the row before it: no rate"));
    }
    if (row.counters().wentDownSince(before.counters())) {
      return ParseResult.error(new ParseError(0, row.iface(), ProcNetDevParser.WENT_DOWN));
    }
    double seconds = (line.ts() - before.ts()) / 1000.0;
    return ParseResult.of(ProcNetDevParser.rates(row.iface(), before.counters(), row.counters(), seconds, line.ts()));
  }

  static boolean handles(LineEvent line) {
    return ProcNetDevParser.FORMAT.equals(line.source());
  }
}
