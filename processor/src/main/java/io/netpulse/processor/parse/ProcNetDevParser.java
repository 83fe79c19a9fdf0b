package io.netpulse.processor.parse;

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

  private static final Pattern EPOCH = Pattern.compile("#?\\s*(\\d{9,10}(?:\\.\\d+)?|\\d{12,13})");
  private static final Pattern ROW = Pattern.compile("([^\\s:]+):\\s*(.*)");

  private record Counters(double rxBytes, double rxPackets, double txBytes, double txPackets) {}

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
    int n = 0;
    for (String raw : lines) {
      n++;
      if (Text.tooLong(raw)) {
        errors.add(Text.tooLongError(n));
        continue;
      }
      String line = Text.clean(raw);
      Matcher epoch = EPOCH.matcher(line);
      if (epoch.matches()) {
        String t = epoch.group(1);
        pendingTime = t.length() >= 12 ? Long.parseLong(t) : Math.round(Double.parseDouble(t) * 1000.0);
        continue;
      }
      if (line.startsWith("Inter-|")) {
        current = new Snapshot(pendingTime == null ? Long.MIN_VALUE : pendingTime, n, new LinkedHashMap<>());
        snapshots.add(current);
        pendingTime = null;
        continue;
      }
      if (line.isEmpty() || line.startsWith("face |")) {
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (current == null || !row.matches()) {
        errors.add(new ParseError(n, null, "expected 'IFACE: 16 counters' after an 'Inter-|' header, got '"
            + Text.shown(line) + "'"));
        continue;
      }
      String[] f = row.group(2).split("\\s+");
      if (f.length < 16) {
        errors.add(new ParseError(n, row.group(1), "expected 16 counters, got " + f.length));
        continue;
      }
      var rxB = Text.number(f[0]);
      var rxP = Text.number(f[1]);
      var txB = Text.number(f[8]);
      var txP = Text.number(f[9]);
      if (rxB.isEmpty() || rxP.isEmpty() || txB.isEmpty() || txP.isEmpty()) {
        errors.add(new ParseError(n, row.group(1), "counters must be numbers"));
        continue;
      }
      current.counters().put(row.group(1),
          new Counters(rxB.getAsDouble(), rxP.getAsDouble(), txB.getAsDouble(), txP.getAsDouble()));
    }
    List<Sample> samples = rates(withTimes(snapshots, context), errors);
    String test = context.test();
    return new ParseResult(test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList(), errors);
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
        if (now.rxBytes() < before.rxBytes() || now.txBytes() < before.txBytes()
            || now.rxPackets() < before.rxPackets() || now.txPackets() < before.txPackets()) {
          errors.add(new ParseError(s.line(), e.getKey(), "a counter went down (reset or wrap): no rate"));
          continue;
        }
        String iface = e.getKey();
        samples.add(Sample.of("rx_pps", (now.rxPackets() - before.rxPackets()) / seconds, Units.PACKETS_PER_S, iface, s.ms()));
        samples.add(Sample.of("tx_pps", (now.txPackets() - before.txPackets()) / seconds, Units.PACKETS_PER_S, iface, s.ms()));
        samples.add(Sample.of("rx_bps", (now.rxBytes() - before.rxBytes()) * 8 / seconds, Units.BITS_PER_S, iface, s.ms()));
        samples.add(Sample.of("tx_bps", (now.txBytes() - before.txBytes()) * 8 / seconds, Units.BITS_PER_S, iface, s.ms()));
      }
      previous = s.counters();
      previousMs = s.ms();
    }
    return samples;
  }
}
