package io.netpulse.launcher.procedure;

import io.netpulse.tools.Sampler;

/** Command lines shared by several procedures; every one runs in the foreground so that its PID is known. */
final class ToolCommands {

  private ToolCommands() {}

  /**
   * {@code sar -n DEV 1} until stopped, in the C locale with ISO times in UTC: one format for the
   * parser, and clock times that need no guess about the host's time zone.
   */
  static RemoteCommand sarDev() {
    return RemoteCommand.of("sar", "-n", "DEV", "1").withEnv("LC_ALL", "C").withEnv("S_TIME_FORMAT", "ISO")
        .withEnv("TZ", "UTC");
  }

  /**
   * {@code ss -s} once per wall-clock second until stopped: the collector's own ss-summary sampler, the same text, so
   * that both sample on the second (a fixed script: no plan value in it).
   */
  static RemoteCommand ssSummaryEverySecond() {
    return RemoteCommand.of("sh", "-c", Sampler.SS_SUMMARY.shellCommand());
  }

  /** Source of the CPU samplers' lines: the processor's /proc/stat parser. */
  static final String CPU_SOURCE = Sampler.PROC_STAT.source();

  /**
   * The {@code cpu} lines of {@code /proc/stat} once per wall-clock second until stopped: the collector's proc-stat
   * sampler, the same text (a fixed script, no plan value in it). /proc/stat rather than {@code sar -u}: every host has
   * it, sysstat or not.
   */
  static RemoteCommand cpuEverySecond() {
    return RemoteCommand.of("sh", "-c", Sampler.PROC_STAT.shellCommand());
  }

  /** netserver on {@code port}, {@code -D}: not daemonised, so it stays the process we started. */
  static RemoteCommand netserver(int port) {
    return RemoteCommand.of("netserver", "-D", "-p", port);
  }

  /**
   * {@code netperf -H host -t TEST -l seconds -p port -D 1 -- testOptions…}: {@code -D 1} is demo mode,
   * one {@code Interim result} line per second, which netpulse streams for its per-second view and steady state.
   */
  static RemoteCommand netperf(String host, String test, long seconds, int port, Object... testOptions) {
    Object[] head = {"-H", host, "-t", test, "-l", seconds, "-p", port, "-D", 1, "--"};
    Object[] all = new Object[head.length + testOptions.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(testOptions, 0, all, head.length, testOptions.length);
    return RemoteCommand.of("netperf", all);
  }
}
