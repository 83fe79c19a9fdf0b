package io.netpulse.common.event;

import java.util.List;

/**
 * One host's CPU use over one repetition's measuring window, made by the processor from the host's per-second
 * {@code /proc/stat} samples; keyed by run on {@code cpu}. A sample that reaches the processor after the window closed
 * sends it again, corrected: readers keep the latest per run and host.
 *
 * @param host        the plan's name of the host (SUT or client)
 * @param windowStart epoch ms the measuring phase began
 * @param windowEnd   epoch ms it ended
 * @param seconds     per-second samples the figures are made of (the seconds wholly inside the window)
 * @param all         all CPUs together
 * @param busiest     the CPU with the highest mean busy share, null when the host's lines had no per-CPU rows
 * @param cpus        every CPU, in the host's order
 * @param saturated   whether the host's CPU was saturated over the window (see {@code saturation})
 * @param saturation  why, in words, when saturated (which CPU, how long, what share was softirq); else null
 */
public record CpuUse(int schema, String run, String plan, String test, int repetition, String execution, String host,
    long windowStart, long windowEnd, int seconds, Cpu all, Cpu busiest, List<Cpu> cpus, boolean saturated,
    String saturation) {

  public static final int SCHEMA = 1;

  public CpuUse {
    cpus = cpus == null ? List.of() : List.copyOf(cpus);
  }

  /**
   * One CPU's (or all CPUs') shares of its time over the window, in percent.
   *
   * @param cpu             {@code cpu0}, {@code cpu1}, … or {@code all}
   * @param busyMeanPct     mean over the seconds of the share neither idle nor waiting for I/O (steal included)
   * @param busyMaxPct      the highest second's
   * @param softirqMeanPct  mean share in softirq (the kernel's packet processing, the usual limit of a packet test)
   * @param stealMeanPct    mean share the hypervisor gave to other guests
   * @param secondsAtLimit  seconds it was at least the saturation threshold busy
   */
  public record Cpu(String cpu, double busyMeanPct, double busyMaxPct, double softirqMeanPct, double stealMeanPct,
      int secondsAtLimit) {}
}
