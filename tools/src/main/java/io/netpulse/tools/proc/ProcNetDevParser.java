package io.netpulse.tools.proc;

import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
public final class ProcNetDevParser implements OutputParser {

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

  /** An interface row read: its counters, or the error; both null for a line that is no row (headers, blank). */
  public record Row(String iface, Counters counters, ParseError error) {
    static final Row NONE = new Row(null, null, null);
  }

  private record Snapshot(long ms, int line, Map<String, Counters> counters) {}

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    List<ParseError> errors = new ArrayList<>();
    List<Snapshot> snapshots = new ArrayList<>();
    Long pendingTime = null;
    Snapshot current = null;
    for (Text.NumberedLine numbered : Text.readable(lines, errors)) {
      int n = numbered.number();
      String line = numbered.text();
      Long epoch = Text.epochMillis(line);
      if (epoch != null) {
        pendingTime = epoch;
        continue;
      }
      if (line.startsWith("Inter-|")) {
        current = new Snapshot(pendingTime == null ? Long.MIN_VALUE : pendingTime, n, new LinkedHashMap<>());
        snapshots.add(current);
        pendingTime = null;
        continue;
      }
      Row row = row(line, n);
      if (row.error() != null) {
        errors.add(row.error());
      } else if (row.counters() != null && current == null) {
        errors.add(new ParseError(n, null, "expected an 'Inter-|' header before the first interface row"));
      } else if (row.counters() != null) {
        current.counters().put(row.iface(), row.counters());
      }
    }
    List<Sample> samples = rates(withTimes(snapshots, context), errors);
    String test = context.test();
    return new ParseResult(test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList(), errors);
  }

  /**
   * One line as an interface row ({@code IFACE: 16 counters}): its counters, an error when it looks like a row
   * but cannot be read, or {@link Row#NONE} for headers, time lines and blank lines.
   */
  public static Row row(String line, int lineNumber) {
    if (line.isEmpty() || line.startsWith("Inter-|") || line.startsWith("face |") || Text.isEpochLine(line)) {
      return Row.NONE;
    }
    Matcher row = ROW.matcher(line);
    if (!row.matches()) {
      return new Row(null, null, new ParseError(lineNumber, null, "expected 'IFACE: 16 counters', got '"
          + Text.shown(line) + "'"));
    }
    String[] f = row.group(2).split("\\s+");
    if (f.length < 16) {
      return new Row(row.group(1), null, new ParseError(lineNumber, row.group(1), "expected 16 counters, got " + f.length));
    }
    var rxB = Text.number(f[0]);
    var rxP = Text.number(f[1]);
    var txB = Text.number(f[8]);
    var txP = Text.number(f[9]);
    if (rxB.isEmpty() || rxP.isEmpty() || txB.isEmpty() || txP.isEmpty()) {
      return new Row(row.group(1), null, new ParseError(lineNumber, row.group(1), "counters must be numbers"));
    }
    return new Row(row.group(1), new Counters(rxB.getAsDouble(), rxP.getAsDouble(), txB.getAsDouble(),
        txP.getAsDouble()), null);
  }

  /** rx/tx packets and bits per second of {@code iface} between two readings {@code seconds} apart, at {@code ts}. */
  public static List<Sample> rates(String iface, Counters before, Counters now, double seconds, long ts) {
    return List.of(
        Sample.of("rx_pps", (now.rxPackets() - before.rxPackets()) / seconds, Units.PACKETS_PER_S, iface, ts),
        Sample.of("tx_pps", (now.txPackets() - before.txPackets()) / seconds, Units.PACKETS_PER_S, iface, ts),
        Sample.of("rx_bps", (now.rxBytes() - before.rxBytes()) * 8 / seconds, Units.BITS_PER_S, iface, ts),
        Sample.of("tx_bps", (now.txBytes() - before.txBytes()) * 8 / seconds, Units.BITS_PER_S, iface, ts));
  }

  /** Snapshots without a time line: 1 s apart, the last at the reference time. */
  private static List<Snapshot> withTimes(List<Snapshot> snapshots, ParseContext context) {
    List<Snapshot> out = new ArrayList<>(snapshots.size());
    for (int i = 0; i < snapshots.size(); i++) {
      Snapshot s = snapshots.get(i);
      long ms = s.ms() != Long.MIN_VALUE ? s.ms() : context.referenceMs() - 1000L * (snapshots.size() - 1 - i);
      out.add(new Snapshot(ms, s.line(), s.counters()));
    }
    return out;
  }

  private static List<Sample> rates(List<Snapshot> snapshots, List<ParseError> errors) {
    List<Sample> samples = new ArrayList<>();
    Map<String, Counters> previous = new HashMap<>();
    long previousMs = 0;
    for (Snapshot s : snapshots) {
      if (!previous.isEmpty() && ProcReadings.tooSoonAfter(previousMs, s.ms())) {
        continue;
      }
      double seconds = (s.ms() - previousMs) / 1000.0;
      for (Map.Entry<String, Counters> e : s.counters().entrySet()) {
        Counters before = previous.get(e.getKey());
        if (before == null) {
          continue;
        }
        if (seconds <= 0) {
          errors.add(new ParseError(s.line(), "time", "snapshot is not later than the one before"));
          break;
        }
        Counters now = e.getValue();
        if (now.wentDownSince(before)) {
          errors.add(new ParseError(s.line(), e.getKey(), WENT_DOWN));
          continue;
        }
        samples.addAll(rates(e.getKey(), before, now, seconds, s.ms()));
      }
      previous = s.counters();
      previousMs = s.ms();
    }
    return samples;
  }
}
