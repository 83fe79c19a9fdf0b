package io.netpulse.holder;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Local ports for connections bound to a chosen source address. Binding to port 0 would give each socket a
 * port of its own across all destinations, capping a source at one ephemeral range (~28k) in total; choosing
 * the port ourselves (with SO_REUSEADDR) lets the same local port serve every server port, so the cap becomes
 * one range per source and server port pair, as with connect()'s own port choice.
 */
final class LocalPorts {

  static final Path KERNEL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int DEFAULT_LOW = 32_768;
  private static final int DEFAULT_HIGH = 60_999;

  private final int low;
  private final int high;
  private final int[] next;

  LocalPorts(int low, int high, int pairs) {
    if (low < 1 || high > PortRange.MAX_PORT || low > high || pairs < 1) {
      throw new IllegalArgumentException("bad local port range " + low + "-" + high + " for " + pairs + " pairs");
    }
    this.low = low;
    this.high = high;
    this.next = new int[pairs];
    java.util.Arrays.fill(next, low);
  }

  /** The kernel's ephemeral range: the ports the system sets aside for outgoing connections, not for services. */
  static LocalPorts fromKernel(int pairs) {
    int[] range = kernelRange();
    return new LocalPorts(range[0], range[1], pairs);
  }

  /**
   * {low, high} of this network namespace's ip_local_port_range, or Linux's default when unreadable. Read as a
   * line: Files.readString sizes its read by the file's size, which procfs reports as 0, and returns "4" of
   * "40000 40999" (so a narrowed range looked unreadable and the default was used).
   */
  static int[] kernelRange() {
    try (BufferedReader reader = Files.newBufferedReader(KERNEL_RANGE)) {
      String line = reader.readLine();
      String[] range = (line == null ? "" : line).trim().split("\\s+");
      return new int[] {Integer.parseInt(range[0]), Integer.parseInt(range[1])};
    } catch (IOException | RuntimeException e) {
      return new int[] {DEFAULT_LOW, DEFAULT_HIGH};
    }
  }

  /** The same range for {@code pairs} pairs. */
  LocalPorts forPairs(int pairs) {
    return new LocalPorts(low, high, pairs);
  }

  /** The next unused local port for this pair, or -1 once the pair has used the whole range. */
  int next(int pair) {
    if (next[pair] > high) {
      return -1;
    }
    return next[pair]++;
  }

  int size() {
    return high - low + 1;
  }

  /** "1000 local ports (40000-40999)". */
  String describe() {
    return size() + " local ports (" + low + "-" + high + ")";
  }
}
