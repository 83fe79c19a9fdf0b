package io.netpulse.tools.proc;

import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.Text;
import io.netpulse.tools.proc.ProcReadings.Row;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Successive snapshots of {@code /proc/net/dev} (for hosts without sysstat), turned into rates
 * between snapshots: rx_pps, tx_pps, rx_bps, tx_bps per interface, stamped with the later snapshot.
 *
 * <p>A snapshot starts at the {@code Inter-|} header. Its time is a line holding only an epoch
 * time just before it ({@code date +%s%3N}, or {@code # 1796015707309}; seconds with a fraction also
 * work); without times, snapshots are taken as 1 s apart, ending at the reference time. A counter
 * that went down (reboot, wrap) gives an error for that interface, not a negative rate.
 */
public final class ProcNetDevParser extends ProcSnapshotParser<ProcNetDevParser.Counters> {

  public static final String FORMAT = "proc-net-dev";
  public static final String WENT_DOWN = "a counter went down (reset or wrap): no rate";

  private static final Pattern ROW = Pattern.compile("([^\\s:]+):\\s*(.*)");

  /** One interface's cumulative counters, as /proc/net/dev gives them (bytes, packets). */
  public record Counters(double rxBytes, double rxPackets, double txBytes, double txPackets) {

    /** A counter that went down since {@code before}: a reset (reboot, driver reload) or a wrap, no rate. */
    public boolean wentDownSince(Counters before) {
      return rxBytes < before.rxBytes || txBytes < before.txBytes || rxPackets < before.rxPackets
          || txPackets < before.txPackets;
    }
  }

  @Override
  public String format() {
    return FORMAT;
  }

  /**
   * One line as an interface row ({@code IFACE: 16 counters}): the interface and its counters, an error when it
   * looks like a row but cannot be read, or {@link Row#none} for headers, time lines and blank lines.
   */
  public static Row<Counters> row(String line, int lineNumber) {
    if (line.isEmpty() || line.startsWith("Inter-|") || line.startsWith("face |") || Text.isEpochLine(line)) {
      return Row.none();
    }
    Matcher row = ROW.matcher(line);
    if (!row.matches()) {
      return new Row<>(null, null, new ParseError(lineNumber, null, "expected 'IFACE: 16 counters', got '"
          + Text.shown(line) + "'"));
    }
    String[] f = row.group(2).split("\\s+");
    if (f.length < 16) {
      return new Row<>(row.group(1), null, new ParseError(lineNumber, row.group(1), "expected 16 counters, got "
          + f.length));
    }
    var rxB = Text.number(f[0]);
    var rxP = Text.number(f[1]);
    var txB = Text.number(f[8]);
    var txP = Text.number(f[9]);
    if (rxB.isEmpty() || rxP.isEmpty() || txB.isEmpty() || txP.isEmpty()) {
      return new Row<>(row.group(1), null, new ParseError(lineNumber, row.group(1), "counters must be numbers"));
    }
    return new Row<>(row.group(1), new Counters(rxB.getAsDouble(), rxP.getAsDouble(), txB.getAsDouble(),
        txP.getAsDouble()), null);
  }

  /** An {@code Inter-|} header starts a snapshot; an interface row goes into it. */
  @Override
  void read(int number, String line, Snapshots<Counters> snapshots, List<ParseError> errors) {
    if (line.startsWith("Inter-|")) {
      snapshots.start(number);
      return;
    }
    Row<Counters> row = row(line, number);
    if (row.error() != null) {
      errors.add(row.error());
    } else if (row.counters() != null && snapshots.current() == null) {
      errors.add(new ParseError(number, null, "expected an 'Inter-|' header before the first interface row"));
    } else if (row.counters() != null) {
      snapshots.current().put(row.scope(), row.counters());
    }
  }

  @Override
  void between(Snapshot<Counters> before, Snapshot<Counters> now, List<Sample> samples, List<ParseError> errors) {
    double seconds = (now.ms() - before.ms()) / 1000.0;
    for (Map.Entry<String, Counters> e : now.rows().entrySet()) {
      Counters then = before.rows().get(e.getKey());
      if (then == null) {
        continue;
      }
      if (seconds <= 0) {
        errors.add(new ParseError(now.line(), "time", "snapshot is not later than the one before"));
        break;
      }
      if (e.getValue().wentDownSince(then)) {
        errors.add(new ParseError(now.line(), e.getKey(), WENT_DOWN));
        continue;
      }
      samples.addAll(rates(e.getKey(), then, e.getValue(), seconds, now.ms()));
    }
  }

  /** rx/tx packets and bits per second of {@code iface} between two readings {@code seconds} apart, at {@code ts}. */
  public static List<Sample> rates(String iface, Counters before, Counters now, double seconds, long ts) {
    return List.of(
        Sample.of("rx_pps", (now.rxPackets() - before.rxPackets()) / seconds, Units.PACKETS_PER_S, iface, ts),
        Sample.of("tx_pps", (now.txPackets() - before.txPackets()) / seconds, Units.PACKETS_PER_S, iface, ts),
        Sample.of("rx_bps", (now.rxBytes() - before.rxBytes()) * 8 / seconds, Units.BITS_PER_S, iface, ts),
        Sample.of("tx_bps", (now.txBytes() - before.txBytes()) * 8 / seconds, Units.BITS_PER_S, iface, ts));
  }
}
