package io.netpulse.holder;

import java.lang.management.ManagementFactory;

/** This process's open-file limit, for the tools' lines: a limit hit is only useful with its value. */
final class ProcessLimits {

  private ProcessLimits() {}

  /** The soft RLIMIT_NOFILE the JVM runs with (HotSpot raises it to the hard limit at start), or -1. */
  static long openFiles() {
    try {
      if (ManagementFactory.getOperatingSystemMXBean()
          instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
        return unix.getMaxFileDescriptorCount();
      }
    } catch (RuntimeException | LinkageError e) {
      // jdk.management absent: the lines say "unknown"
    }
    return -1;
  }

  /** "nofile 20000", or "nofile unknown". */
  static String openFilesText() {
    long n = openFiles();
    return "nofile " + (n < 0 ? "unknown" : Long.toString(n));
  }
}
