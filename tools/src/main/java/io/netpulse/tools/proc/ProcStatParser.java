package io.netpulse.tools.proc;

import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;
import io.netpulse.tools.proc.ProcReadings.Row;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Successive snapshots of the {@code cpu} lines of {@code /proc/stat} (every Linux host has them, sysstat or not),
 * turned into each CPU's use between two snapshots: {@code cpu_busy_pct}, {@code cpu_softirq_pct} and
 * {@code cpu_steal_pct} (%), with the CPU as the sample's scope in {@code iface} ({@code cpu0}, {@code cpu1}, …, and
 * {@code all} for the aggregate {@code cpu} line), stamped with the later snapshot.
 *
 * <p>Busy is all time but idle and iowait (what top and sar call 100 − %idle − %iowait), steal included: time the
 * hypervisor gave to other guests is time this vCPU could not run, so a vCPU losing half its time to steal and busy
 * the other half is as full as one busy throughout. guest and guest_nice are already counted in user and nice and are
 * not added again. The figures are ratios of clock ticks within one interval, so they need no clock: the time of a
 * snapshot only stamps them. A snapshot starts at a time line ({@code # <epoch ms>} or {@code date +%s%3N}) or at a
 * CPU already seen in the current one; without time lines snapshots are taken as 1 s apart, the last at the
 * reference time. Other lines of /proc/stat (intr, ctxt, softirq, …) are skipped.
 */
public final class ProcStatParser extends ProcSnapshotParser<ProcStatParser.Times> {

  public static final String FORMAT = "proc-stat";
  public static final String BUSY = "cpu_busy_pct";
  public static final String SOFTIRQ = "cpu_softirq_pct";
  public static final String STEAL = "cpu_steal_pct";
  /** The scope of the aggregate {@code cpu} line: all CPUs together, as sar names it. */
  public static final String ALL = "all";
  public static final String WENT_DOWN = "the CPU's time went down (a reboot or a counter reset): no use";

  private static final Set<String> METRICS = Set.of(BUSY, SOFTIRQ, STEAL);
  private static final Pattern ROW = Pattern.compile("cpu(\\d{0,6})\\s+(.*)");

  /**
   * One CPU's cumulative time in clock ticks (USER_HZ), the first eight columns of its line; kernels before 2.6.11
   * print fewer (zeros here). Counts have at most 18 digits (10^18 ticks at 100 Hz are 300 million years), so their
   * sum cannot overflow.
   */
  public record Times(long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal) {

    long total() {
      return user + nice + system + idle + iowait + irq + softirq + steal;
    }
  }

  /** Whether {@code metric} is one of the CPU-use metrics this parser makes. */
  public static boolean isCpuMetric(String metric) {
    return metric != null && METRICS.contains(metric);
  }

  @Override
  public String format() {
    return FORMAT;
  }

  /**
   * One line as a CPU line ({@code cpu} or {@code cpuN} and at least four tick counts): its scope and times, an
   * error when it looks like one but cannot be read, or {@link Row#none} for every other line.
   */
  public static Row<Times> row(String line, int lineNumber) {
    Matcher m = ROW.matcher(line);
    if (!line.startsWith("cpu") || !m.matches()) {
      return Row.none();
    }
    String cpu = m.group(1).isEmpty() ? ALL : "cpu" + m.group(1);
    String[] f = m.group(2).strip().split("\\s+");
    if (f.length < 4) {
      return new Row<>(cpu, null, new ParseError(lineNumber, cpu, "expected at least 4 tick counts (user nice system "
          + "idle), got " + f.length));
    }
    long[] v = new long[8];
    for (int i = 0; i < Math.min(8, f.length); i++) {
      if (f[i].length() > 18 || f[i].isEmpty() || !f[i].chars().allMatch(Character::isDigit)) {
        return new Row<>(cpu, null, new ParseError(lineNumber, cpu, "tick counts must be whole numbers, got '"
            + Text.shown(f[i]) + "'"));
      }
      v[i] = Long.parseLong(f[i]);
    }
    return new Row<>(cpu, new Times(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]), null);
  }

  /** A CPU line goes into the current snapshot; one after a time line, or of a CPU already in it, starts the next. */
  @Override
  void read(int number, String line, Snapshots<Times> snapshots, List<ParseError> errors) {
    Row<Times> row = row(line, number);
    if (row.error() != null) {
      errors.add(row.error());
      return;
    }
    if (row.counters() == null) {
      return;
    }
    if (snapshots.current() == null || snapshots.timePending() || snapshots.current().containsKey(row.scope())) {
      snapshots.start(number);
    }
    snapshots.current().put(row.scope(), row.counters());
  }

  @Override
  void between(Snapshot<Times> before, Snapshot<Times> now, List<Sample> samples, List<ParseError> errors) {
    for (Map.Entry<String, Times> e : now.rows().entrySet()) {
      Times then = before.rows().get(e.getKey());
      if (then != null) {
        ParseResult r = use(e.getKey(), then, e.getValue(), now.ms(), 0);
        samples.addAll(r.samples());
        errors.addAll(r.errors());
      }
    }
  }

  /**
   * A CPU's use between two readings, stamped {@code ts}. A column that stepped back by a few ticks counts as 0 (per-CPU
   * idle and iowait can, on tickless kernels); the whole time going down is a reset and gives an error; readings
   * within the same tick give nothing.
   */
  public static ParseResult use(String cpu, Times before, Times now, long ts, int lineNumber) {
    if (now.total() < before.total()) {
      return ParseResult.error(new ParseError(lineNumber, cpu, WENT_DOWN));
    }
    long user = since(now.user(), before.user());
    long nice = since(now.nice(), before.nice());
    long system = since(now.system(), before.system());
    long idle = since(now.idle(), before.idle());
    long iowait = since(now.iowait(), before.iowait());
    long irq = since(now.irq(), before.irq());
    long softirq = since(now.softirq(), before.softirq());
    long steal = since(now.steal(), before.steal());
    double total = (double) user + nice + system + idle + iowait + irq + softirq + steal;
    if (total <= 0) {
      // Two readings within one clock tick (10 ms): the sampler reads at its start and then on each wall-clock
      // second, so its first two can be milliseconds apart. Nothing to give, and nothing wrong with the line: it was
      // a dead letter until a CI run started the sampler 5 ms before a second.
      return ParseResult.empty();
    }
    return ParseResult.of(List.of(
        Sample.of(BUSY, 100.0 * (total - idle - iowait) / total, Units.PERCENT, cpu, ts),
        Sample.of(SOFTIRQ, 100.0 * softirq / total, Units.PERCENT, cpu, ts),
        Sample.of(STEAL, 100.0 * steal / total, Units.PERCENT, cpu, ts)));
  }

  private static long since(long now, long before) {
    return Math.max(0, now - before);
  }
}
