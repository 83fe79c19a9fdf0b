package io.netpulse.processor.run;

import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.proc.ProcStatParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One host's CPU use over a measuring window, from its per-second CPU samples, and whether it was saturated.
 *
 * <p>Saturated: one CPU at least {@value #CPU_LIMIT_PCT} % busy in at least half the window's seconds, or all CPUs
 * together at least {@value #ALL_LIMIT_PCT} % busy on average. A packet test usually stops at one core: the one its
 * NIC queue's softirq runs on, full while the others idle, so an all-CPU mean alone would hide it (one full core of
 * 16 is 6 %). A core is never quite 100 % in /proc/stat's ticks, so 95 % counts as full; half the seconds, so that a
 * core full only for a burst (a tool starting) is not a verdict on the window. Below 10 % headroom on all CPUs
 * together the tools, the samplers and the kernel compete for time, whichever core the traffic is on.
 */
final class CpuFigure {

  static final double CPU_LIMIT_PCT = 95.0;
  static final double ALL_LIMIT_PCT = 90.0;

  private CpuFigure() {}

  /** Per-second shares of one CPU (or all), by metric. */
  private static final class Seconds {
    final List<Double> busy = new ArrayList<>();
    final List<Double> softirq = new ArrayList<>();
    final List<Double> steal = new ArrayList<>();
  }

  /**
   * @param samples the host's CPU samples of the repetition (any of them may lie outside the window)
   * @return the figure, or null when no sample lies in the window
   */
  static CpuUse of(String run, RepetitionState rep, String host, List<Sample> samples) {
    List<Sample> inside = wholeSeconds(rep.start, rep.end, samples);
    Map<String, Seconds> byCpu = new LinkedHashMap<>();
    for (Sample s : inside) {
      if (s.iface() == null) {
        continue;
      }
      Seconds sec = byCpu.computeIfAbsent(s.iface(), k -> new Seconds());
      switch (s.metric()) {
        case ProcStatParser.BUSY -> sec.busy.add(s.value());
        case ProcStatParser.SOFTIRQ -> sec.softirq.add(s.value());
        case ProcStatParser.STEAL -> sec.steal.add(s.value());
        default -> { }
      }
    }
    Seconds allSeconds = byCpu.remove(ProcStatParser.ALL);
    List<CpuUse.Cpu> cpus = new ArrayList<>();
    byCpu.forEach((cpu, sec) -> {
      if (!sec.busy.isEmpty()) {
        cpus.add(cpu(cpu, sec));
      }
    });
    cpus.sort(Comparator.comparingInt(c -> cpuNumber(c.cpu())));
    CpuUse.Cpu all = allSeconds != null && !allSeconds.busy.isEmpty() ? cpu(ProcStatParser.ALL, allSeconds)
        : averaged(cpus);
    if (all == null) {
      return null;
    }
    int seconds = allSeconds != null ? allSeconds.busy.size()
        : cpus.stream().mapToInt(c -> byCpu.get(c.cpu()).busy.size()).max().orElse(0);
    CpuUse.Cpu busiest = cpus.stream().max(Comparator.comparingDouble(CpuUse.Cpu::busyMeanPct)
        .thenComparingInt(CpuUse.Cpu::secondsAtLimit)).orElse(null);
    String saturation = saturation(all, cpus, seconds);
    return new CpuUse(CpuUse.SCHEMA, run, rep.plan, rep.test, rep.repetition, rep.execution, host, rep.start, rep.end,
        seconds, all, busiest, cpus, saturation != null, saturation);
  }

  /** Why the host counts as saturated, or null. */
  private static String saturation(CpuUse.Cpu all, List<CpuUse.Cpu> cpus, int seconds) {
    List<String> why = new ArrayList<>();
    if (all.busyMeanPct() >= ALL_LIMIT_PCT) {
      why.add(String.format(Locale.ROOT, "all CPUs %.1f %% busy on average (at least %.0f %%)", all.busyMeanPct(),
          ALL_LIMIT_PCT));
    }
    cpus.stream()
        .filter(c -> seconds > 0 && 2 * c.secondsAtLimit() >= seconds)
        .max(Comparator.comparingInt(CpuUse.Cpu::secondsAtLimit).thenComparingDouble(CpuUse.Cpu::busyMeanPct))
        .ifPresent(c -> why.add(String.format(Locale.ROOT, "%s at least %.0f %% busy in %d of %d s (softirq %.1f %%, "
            + "steal %.1f %% of its time)", c.cpu(), CPU_LIMIT_PCT, c.secondsAtLimit(), seconds, c.softirqMeanPct(),
            c.stealMeanPct())));
    return why.isEmpty() ? null : String.join("; ", why);
  }

  private static CpuUse.Cpu cpu(String name, Seconds sec) {
    int atLimit = (int) sec.busy.stream().filter(b -> b >= CPU_LIMIT_PCT).count();
    return new CpuUse.Cpu(name, mean(sec.busy), sec.busy.stream().mapToDouble(Double::doubleValue).max().orElse(0),
        mean(sec.softirq), mean(sec.steal), atLimit);
  }

  /** All CPUs from the per-CPU figures, for lines without the aggregate row: means average, maxima are bounds. */
  private static CpuUse.Cpu averaged(List<CpuUse.Cpu> cpus) {
    if (cpus.isEmpty()) {
      return null;
    }
    return new CpuUse.Cpu(ProcStatParser.ALL, cpus.stream().mapToDouble(CpuUse.Cpu::busyMeanPct).average().orElse(0),
        cpus.stream().mapToDouble(CpuUse.Cpu::busyMaxPct).max().orElse(0),
        cpus.stream().mapToDouble(CpuUse.Cpu::softirqMeanPct).average().orElse(0),
        cpus.stream().mapToDouble(CpuUse.Cpu::stealMeanPct).average().orElse(0),
        cpus.stream().mapToInt(CpuUse.Cpu::secondsAtLimit).min().orElse(0));
  }

  /**
   * The samples whose second lies wholly inside the window, as for sar rows: a line is stamped when the launcher
   * read it, at the end of its interval, so W − 1 s ≥ start and W + 1 s ≤ end whatever the sampler's phase; a window
   * too short to hold one keeps every sample inside it.
   */
  static List<Sample> wholeSeconds(long start, long end, List<Sample> samples) {
    List<Sample> inWindow = samples.stream().filter(s -> s.ts() >= start && (end == 0 || s.ts() < end)).toList();
    List<Sample> whole = inWindow.stream()
        .filter(s -> s.ts() - 1000 >= start && (end == 0 || s.ts() + 1000 <= end)).toList();
    return whole.isEmpty() ? inWindow : whole;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  private static int cpuNumber(String cpu) {
    try {
      return Integer.parseInt(cpu.substring(3));
    } catch (RuntimeException e) {
      return Integer.MAX_VALUE;
    }
  }
}
