package io.netpulse.launcher.run;

import io.netpulse.common.event.CpuUse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A repetition's CPU use and its flags, for people (the note under the run's table, the reports) and for programs
 * (each JSON repetition's {@code cpu} and {@code flags}). Flagged: a host whose CPU was saturated over the measuring
 * window, and hosts that are the machine netpulse runs on; either can make a figure the limit of the host rather than
 * of the network.
 */
public final class CpuNotes {

  /** Flag: a host's CPU was saturated over the measuring window. */
  public static final String CPU_SATURATED = "cpu_saturated";
  /** Flag: a host of the test is the machine netpulse runs on. */
  public static final String SHARED_WITH_NETPULSE = "shared_with_netpulse";

  private CpuNotes() {}

  /** The repetition's flags, in a fixed order; empty when none. */
  public static List<String> flags(List<CpuUse> cpu, List<String> sharedWithNetpulse) {
    List<String> flags = new ArrayList<>();
    if (cpu.stream().anyMatch(CpuUse::saturated)) {
      flags.add(CPU_SATURATED);
    }
    if (sharedWithNetpulse != null && !sharedWithNetpulse.isEmpty()) {
      flags.add(SHARED_WITH_NETPULSE);
    }
    return flags;
  }

  /**
   * "FLAGGED: CPU saturated on sut: cpu1 at least 95 % busy in 9 of 10 s (…); sut, peer are the machine running
   * netpulse (…). CPU: sut 62 % busy (max 88 %), busiest cpu1 97 % (softirq 81 %); peer …", or null when there is
   * nothing to say.
   */
  public static String note(List<CpuUse> cpu, List<String> sharedWithNetpulse) {
    List<String> flagged = new ArrayList<>();
    for (CpuUse u : cpu) {
      if (u.saturated()) {
        flagged.add("CPU saturated on " + u.host() + ": " + u.saturation());
      }
    }
    if (sharedWithNetpulse != null && !sharedWithNetpulse.isEmpty()) {
      flagged.add(String.join(", ", sharedWithNetpulse) + (sharedWithNetpulse.size() == 1 ? " is" : " are")
          + " the machine running netpulse (same kernel boot id): its own load was on "
          + (sharedWithNetpulse.size() == 1 ? "its" : "their") + " CPUs");
    }
    List<String> parts = new ArrayList<>();
    if (!flagged.isEmpty()) {
      parts.add("FLAGGED: " + String.join("; ", flagged));
    }
    if (!cpu.isEmpty()) {
      parts.add("CPU over the measuring window: " + String.join("; ", cpu.stream().map(CpuNotes::figure).toList()));
    }
    return parts.isEmpty() ? null : String.join(". ", parts);
  }

  /** "sut 62 % busy (max 88 %), busiest cpu1 97 % (max 100 %, softirq 81 %)" over its seconds. */
  static String figure(CpuUse u) {
    StringBuilder b = new StringBuilder(u.host()).append(' ')
        .append(pct(u.all().busyMeanPct())).append(" busy (max ").append(pct(u.all().busyMaxPct())).append(')');
    if (u.busiest() != null && u.cpus().size() > 1) {
      b.append(", busiest ").append(u.busiest().cpu()).append(' ').append(pct(u.busiest().busyMeanPct()))
          .append(" (max ").append(pct(u.busiest().busyMaxPct())).append(", softirq ")
          .append(pct(u.busiest().softirqMeanPct())).append(')');
    }
    if (u.all().stealMeanPct() >= 1) {
      b.append(", steal ").append(pct(u.all().stealMeanPct()));
    }
    return b.append(" over ").append(u.seconds()).append(" s").toString();
  }

  /** One host's figure for {@code --format json}: names in camel case as on the topics, units in the names. */
  public static Map<String, Object> json(CpuUse u) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("host", u.host());
    m.put("seconds", u.seconds());
    m.put("busyMeanPct", u.all().busyMeanPct());
    m.put("busyMaxPct", u.all().busyMaxPct());
    m.put("softirqMeanPct", u.all().softirqMeanPct());
    m.put("stealMeanPct", u.all().stealMeanPct());
    m.put("busiestCpu", u.busiest() == null ? null : cpuJson(u.busiest()));
    m.put("cpus", u.cpus().stream().map(CpuNotes::cpuJson).toList());
    m.put("saturated", u.saturated());
    m.put("saturation", u.saturation());
    return m;
  }

  private static Map<String, Object> cpuJson(CpuUse.Cpu c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cpu", c.cpu());
    m.put("busyMeanPct", c.busyMeanPct());
    m.put("busyMaxPct", c.busyMaxPct());
    m.put("softirqMeanPct", c.softirqMeanPct());
    m.put("stealMeanPct", c.stealMeanPct());
    m.put("secondsAtLimit", c.secondsAtLimit());
    return m;
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f %%", v);
  }
}
