package io.netpulse.processor.topology;

import io.netpulse.common.event.LineEvent;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcReadings;
import io.netpulse.tools.proc.ProcStatParser;
import io.netpulse.tools.proc.ProcStatParser.Times;
import java.util.Objects;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * CPU use from streamed {@code /proc/stat} CPU lines (the launcher's CPU sampler, and the collector's {@code proc-stat}
 * sampler): a line holds cumulative ticks, so each is set against the same host's and CPU's previous line
 * ({@link StreamedCounters}). The first line of a CPU, one more than {@link #MAX_GAP_MS} after the last (a restarted
 * sampler), and one of another run than the last (the next repetition's sampler: the gap between them is set-up time,
 * not its own) only set the baseline.
 */
final class ProcStatCpu extends StreamedCounters<Times, ProcStatCpu.Reading> {

  /** Each host's CPUs' last ticks ({@link HostReadings}); it was {@code proc-stat-ticks}, per CPU. */
  static final String STORE = "proc-stat-readings";
  static final long MAX_GAP_MS = 5_000;

  /** A CPU's last ticks, when its line was read, and under which run. */
  record Reading(long ts, String run, Times times) {}

  static final HostReadings.Codec<Reading> CODEC = new HostReadings.Codec<>() {
    @Override
    public void write(java.io.DataOutputStream out, Reading r) throws java.io.IOException {
      out.writeLong(r.ts());
      out.writeBoolean(r.run() != null);
      if (r.run() != null) {
        out.writeUTF(r.run());
      }
      Times t = r.times();
      for (long v : new long[] {t.user(), t.nice(), t.system(), t.idle(), t.iowait(), t.irq(), t.softirq(), t.steal()}) {
        out.writeLong(v);
      }
    }

    @Override
    public Reading read(java.io.DataInputStream in) throws java.io.IOException {
      long ts = in.readLong();
      String run = in.readBoolean() ? in.readUTF() : null;
      return new Reading(ts, run, new Times(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
          in.readLong(), in.readLong(), in.readLong()));
    }
  };

  ProcStatCpu(KeyValueStore<String, java.util.Map<String, Reading>> store) {
    super(store, line -> ProcStatParser.row(line, 0));
  }

  @Override
  ParseResult against(LineEvent line, String cpu, Times times, Reading before) {
    if (before != null && line.ts() < before.ts() && Objects.equals(before.run(), line.run())) {
      return ParseResult.error(new ParseError(0, cpu, "read earlier than the line before it: no use"));
    }
    if (before != null && ProcReadings.tooSoonAfter(before.ts(), line.ts())
        && Objects.equals(before.run(), line.run())) {
      return ParseResult.empty(); // the sampler's first two readings, ms apart: the earlier stays the baseline
    }
    keep(line, cpu, new Reading(line.ts(), line.run(), times));
    if (before == null || line.ts() - before.ts() > MAX_GAP_MS || !Objects.equals(before.run(), line.run())) {
      return ParseResult.empty();
    }
    return ProcStatParser.use(cpu, before.times(), times, line.ts(), 0);
  }

  static StoreBuilder<KeyValueStore<String, java.util.Map<String, Reading>>> storeBuilder() {
    return HostReadings.storeBuilder(STORE, CODEC);
  }

  static boolean handles(LineEvent line) {
    return ProcStatParser.FORMAT.equals(line.source());
  }
}
