package io.netpulse.processor.topology;

import io.netpulse.common.event.LineEvent;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcNetDevParser;
import io.netpulse.tools.proc.ProcNetDevParser.Counters;
import io.netpulse.tools.proc.ProcReadings;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Rates from streamed {@code /proc/net/dev} rows (the sampler of hosts without sysstat): the difference between an
 * interface's row and its previous one ({@link StreamedCounters}) over the time between the two lines (the
 * collector's read times) is the rate. The first row of an interface, and one more than {@link #MAX_GAP_MS} after the
 * last (a restarted sampler), only sets the baseline: a rate over a long gap stamped as one second would skew
 * per-second windows.
 */
final class ProcNetDevRates extends StreamedCounters<Counters, ProcNetDevRates.Reading> {

  /** Each host's interfaces' last counters ({@link HostReadings}); it was {@code proc-net-dev-counters}, per interface. */
  static final String STORE = "proc-net-dev-readings";
  static final long MAX_GAP_MS = 5_000;

  /** An interface's last counters and when its line was read. */
  record Reading(long ts, Counters counters) {}

  static final HostReadings.Codec<Reading> CODEC = new HostReadings.Codec<>() {
    @Override
    public void write(java.io.DataOutputStream out, Reading r) throws java.io.IOException {
      out.writeLong(r.ts());
      out.writeDouble(r.counters().rxBytes());
      out.writeDouble(r.counters().rxPackets());
      out.writeDouble(r.counters().txBytes());
      out.writeDouble(r.counters().txPackets());
    }

    @Override
    public Reading read(java.io.DataInputStream in) throws java.io.IOException {
      return new Reading(in.readLong(), new Counters(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble()));
    }
  };

  ProcNetDevRates(KeyValueStore<String, java.util.Map<String, Reading>> store) {
    super(store, line -> ProcNetDevParser.row(line, 0));
  }

  @Override
  ParseResult against(LineEvent line, String iface, Counters counters, Reading before) {
    if (before != null && ProcReadings.tooSoonAfter(before.ts(), line.ts())) {
      return ParseResult.empty(); // the sampler's first two readings, ms apart: the earlier stays the baseline
    }
    keep(line, iface, new Reading(line.ts(), counters));
    if (before == null || line.ts() - before.ts() > MAX_GAP_MS) {
      return ParseResult.empty();
    }
    if (line.ts() <= before.ts()) {
      return ParseResult.error(new ParseError(0, iface, "read no later than the row before it: no rate"));
    }
    if (counters.wentDownSince(before.counters())) {
      return ParseResult.error(new ParseError(0, iface, ProcNetDevParser.WENT_DOWN));
    }
    double seconds = (line.ts() - before.ts()) / 1000.0;
    return ParseResult.of(ProcNetDevParser.rates(iface, before.counters(), counters, seconds, line.ts()));
  }

  static StoreBuilder<KeyValueStore<String, java.util.Map<String, Reading>>> storeBuilder() {
    return HostReadings.storeBuilder(STORE, CODEC);
  }

  static boolean handles(LineEvent line) {
    return ProcNetDevParser.FORMAT.equals(line.source());
  }
}
