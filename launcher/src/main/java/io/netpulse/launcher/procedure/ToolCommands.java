package io.netpulse.launcher.procedure;

import io.netpulse.tools.Sampler;
import io.netpulse.tools.netperf.NetperfCommands;
import java.util.List;
import java.util.Map;

/**
 * The tools module's command lines (argument vectors) as remote commands: the procedures build nothing of a tool's
 * command line themselves where its package has it. Every one runs in the foreground so that its PID is known.
 */
final class ToolCommands {

  private ToolCommands() {}

  static RemoteCommand of(List<String> argv) {
    return new RemoteCommand(Map.of(), argv);
  }

  /** {@code sampler} as the collector runs it: the same argument vector and environment. */
  static RemoteCommand sampler(Sampler sampler) {
    RemoteCommand c = of(sampler.argv());
    for (Map.Entry<String, String> e : sampler.environment().entrySet()) {
      c = c.withEnv(e.getKey(), e.getValue());
    }
    return c;
  }

  /** {@code sampler} on {@code host}, its lines under the sampler's source name. */
  static HostCommand sampler(String host, Sampler sampler) {
    return HostCommand.sampler(host, sampler.source(), sampler(sampler));
  }

  /** {@code sar -n DEV 1} until stopped, in the C locale with ISO times in UTC ({@link Sampler#SAR_DEV}). */
  static RemoteCommand sarDev() {
    return sampler(Sampler.SAR_DEV);
  }

  /** {@code ss -s} once per wall-clock second until stopped ({@link Sampler#SS_SUMMARY}). */
  static RemoteCommand ssSummaryEverySecond() {
    return sampler(Sampler.SS_SUMMARY);
  }

  /** Source of the CPU samplers' lines: the processor's /proc/stat parser. */
  static final String CPU_SOURCE = Sampler.PROC_STAT.source();

  /**
   * The {@code cpu} lines of {@code /proc/stat} once per wall-clock second until stopped ({@link Sampler#PROC_STAT}).
   * /proc/stat rather than {@code sar -u}: every host has it, sysstat or not.
   */
  static RemoteCommand cpuEverySecond() {
    return sampler(Sampler.PROC_STAT);
  }

  static RemoteCommand netserver(int port) {
    return of(NetperfCommands.netserver(port));
  }

  static RemoteCommand netperf(String host, String test, long seconds, int port, Object... testOptions) {
    return of(NetperfCommands.netperf(host, test, seconds, port, testOptions));
  }
}
