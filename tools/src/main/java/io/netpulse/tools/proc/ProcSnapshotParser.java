package io.netpulse.tools.proc;

import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole output of successive snapshots of a {@code /proc} file of cumulative counters ({@code /proc/net/dev},
 * {@code /proc/stat}), each snapshot set against the one before it. What the outputs share is read here once: a line
 * holding only an epoch time stamps the next snapshot ({@code date +%s%3N}, or {@code # 1796015707309}; seconds with a
 * fraction also work); without time lines, snapshots are taken as 1 s apart, ending at the reference time; a snapshot
 * less than {@link ProcReadings#MIN_INTERVAL_MS} after the one before gives nothing, and the one before stays the
 * baseline (unless it has no rows: a header alone). A subclass says how its rows go into snapshots and what two
 * snapshots give.
 *
 * @param <V> one scope's (an interface's, a CPU's) counters in a snapshot
 */
abstract class ProcSnapshotParser<V> implements OutputParser {

  /** The time of a snapshot no time line came before, until it is given one. */
  private static final long UNTIMED = Long.MIN_VALUE;

  /** One snapshot: its time (epoch ms), the line it starts at, and its rows by scope in the order read. */
  record Snapshot<V>(long ms, int line, Map<String, V> rows) {}

  /** The snapshots of one output as its lines are read, and the time line that stamps the next one. */
  static final class Snapshots<V> {
    private final List<Snapshot<V>> read = new ArrayList<>();
    private Long pendingMs;

    /** Starts a snapshot at line {@code number}, stamped with the time line read since the one before, if any. */
    void start(int number) {
      read.add(new Snapshot<>(pendingMs == null ? UNTIMED : pendingMs, number, new LinkedHashMap<>()));
      pendingMs = null;
    }

    /** The rows of the snapshot being read, or null before the first. */
    Map<String, V> current() {
      return read.isEmpty() ? null : read.get(read.size() - 1).rows();
    }

    /** Whether a time line came since the current snapshot started. */
    boolean timePending() {
      return pendingMs != null;
    }
  }

  /** Reads a line that is no time line into {@code snapshots}, or adds why it cannot to {@code errors}. */
  abstract void read(int number, String line, Snapshots<V> snapshots, List<ParseError> errors);

  /** Adds the samples of {@code now} against {@code before}, stamped with {@code now}, and the errors. */
  abstract void between(Snapshot<V> before, Snapshot<V> now, List<Sample> samples, List<ParseError> errors);

  @Override
  public final ParseResult parse(List<String> lines, ParseContext context) {
    List<ParseError> errors = new ArrayList<>();
    Snapshots<V> snapshots = new Snapshots<>();
    for (Text.NumberedLine numbered : Text.readable(lines, errors)) {
      Long epoch = Text.epochMillis(numbered.text());
      if (epoch != null) {
        snapshots.pendingMs = epoch;
      } else {
        read(numbered.number(), numbered.text(), snapshots, errors);
      }
    }
    List<Sample> samples = new ArrayList<>();
    Snapshot<V> before = null;
    for (Snapshot<V> now : withTimes(snapshots.read, context)) {
      if (before == null) {
        before = now;
      } else if (before.rows().isEmpty() || !ProcReadings.tooSoonAfter(before.ms(), now.ms())) {
        between(before, now, samples, errors);
        before = now;
      }
    }
    String test = context.test();
    return new ParseResult(test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList(), errors);
  }

  /** Snapshots without a time line: 1 s apart, the last at the reference time. */
  private static <V> List<Snapshot<V>> withTimes(List<Snapshot<V>> snapshots, ParseContext context) {
    List<Snapshot<V>> out = new ArrayList<>(snapshots.size());
    for (int i = 0; i < snapshots.size(); i++) {
      Snapshot<V> s = snapshots.get(i);
      long ms = s.ms() != UNTIMED ? s.ms() : context.referenceMs() - 1000L * (snapshots.size() - 1 - i);
      out.add(new Snapshot<>(ms, s.line(), s.rows()));
    }
    return out;
  }
}
