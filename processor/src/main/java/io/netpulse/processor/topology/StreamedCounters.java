package io.netpulse.processor.topology;

import io.netpulse.common.event.LineEvent;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcReadings;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Samples from the streamed rows of a sampler of a {@code /proc} file of cumulative counters ({@code /proc/net/dev}'s
 * interfaces, {@code /proc/stat}'s CPUs): a row holds counts since boot, so each is set against the same host's and
 * scope's previous reading, kept in a state store ({@link HostReadings}).
 *
 * @param <C> a row's counters
 * @param <R> a scope's last reading, as stored
 */
abstract class StreamedCounters<C, R> {

  private final HostReadings<R> readings;
  private final Function<String, ProcReadings.Row<C>> rows;

  /** @param rows a stripped line as a row of the sampler's file */
  StreamedCounters(KeyValueStore<String, Map<String, R>> store, Function<String, ProcReadings.Row<C>> rows) {
    this.readings = new HostReadings<>(store);
    this.rows = rows;
  }

  /** The record's lines are read: its hosts' readings are written (once per host and record). */
  final void recordDone() {
    readings.recordDone();
  }

  /** Samples of one streamed line (stamped with the line's time), or why it gives none. */
  final ParseResult parse(LineEvent line) {
    ProcReadings.Row<C> row = rows.apply(line.line().strip());
    if (row.error() != null) {
      return ParseResult.error(row.error());
    }
    if (row.counters() == null) {
      return ParseResult.empty();
    }
    return against(line, row.scope(), row.counters(), readings.get(line.host(), row.scope()));
  }

  /**
   * The samples of {@code line}'s row of {@code scope} against the scope's last reading ({@code before}, null for
   * none), or why it gives none; the row is {@link #keep kept} where it is the next row's baseline.
   */
  abstract ParseResult against(LineEvent line, String scope, C counters, R before);

  /** Keeps {@code reading} as the last of {@code line}'s host's {@code scope}. */
  final void keep(LineEvent line, String scope, R reading) {
    readings.put(line.host(), scope, reading);
  }
}
