package io.netpulse.launcher.remote;

import java.time.Duration;
import java.util.Locale;

/**
 * A host's 1-minute load average and online CPUs, as its batch shell last read them. Waits on the host scale with
 * the load per CPU: a saturated host starts and stops processes late, and a fixed timeout that suits an idle host
 * fails a repetition there for no fault of the procedure.
 *
 * @param load1 {@code /proc/loadavg}'s first field; negative when unknown
 * @param cpus  CPUs in {@code /sys/devices/system/cpu/online}; 0 when unknown
 */
public record HostLoad(double load1, int cpus) {

  public static final HostLoad UNKNOWN = new HostLoad(-1, 0);
  /** Waits grow with the load per CPU, up to this many times their base. */
  static final double MAX_FACTOR = 10;

  /** How many times longer than on an idle host to wait: load per CPU, from 1 to {@value #MAX_FACTOR}. */
  public double factor() {
    if (load1 < 0 || cpus < 1) {
      return 1;
    }
    return Math.min(MAX_FACTOR, Math.max(1, load1 / cpus));
  }

  public Duration scale(Duration base) {
    return Duration.ofMillis((long) Math.ceil(base.toMillis() * factor()));
  }

  /**
   * From the shell's words: the load field and the online list ({@code 0-1,4,6-7}); what cannot be read is unknown.
   */
  static HostLoad parse(String load, String online) {
    double l;
    try {
      l = Double.parseDouble(load);
    } catch (NumberFormatException | NullPointerException e) {
      l = -1;
    }
    return new HostLoad(l, cpus(online));
  }

  static int cpus(String online) {
    if (online == null || online.isBlank()) {
      return 0;
    }
    int count = 0;
    try {
      for (String part : online.strip().split(",")) {
        int dash = part.indexOf('-');
        count += dash < 0 ? 1 : Integer.parseInt(part.substring(dash + 1)) - Integer.parseInt(part.substring(0, dash)) + 1;
      }
    } catch (NumberFormatException e) {
      return 0;
    }
    return count;
  }

  @Override
  public String toString() {
    return load1 < 0 || cpus < 1 ? "host load unknown"
        : String.format(Locale.ROOT, "host load %.1f on %d CPUs", load1, cpus);
  }
}
