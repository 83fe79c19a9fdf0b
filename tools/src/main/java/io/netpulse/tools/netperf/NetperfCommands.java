package io.netpulse.tools.netperf;

import java.util.ArrayList;
import java.util.List;

/** netperf's and netserver's command lines as argument vectors; every one runs in the foreground so its PID is known. */
public final class NetperfCommands {

  private NetperfCommands() {}

  /** netserver on {@code port}, {@code -D}: not daemonised, so it stays the process we started. */
  public static List<String> netserver(int port) {
    return List.of("netserver", "-D", "-p", String.valueOf(port));
  }

  /**
   * {@code netperf -H host -t TEST -l seconds -p port -D 1 -- testOptions…}: {@code -D 1} is demo mode, one
   * {@code Interim result} line per second, which netpulse streams for its per-second view and steady state.
   */
  public static List<String> netperf(String host, String test, long seconds, int port, Object... testOptions) {
    List<String> argv = new ArrayList<>(List.of("netperf", "-H", host, "-t", test, "-l", String.valueOf(seconds),
        "-p", String.valueOf(port), "-D", "1", "--"));
    for (Object o : testOptions) {
      argv.add(String.valueOf(o));
    }
    return List.copyOf(argv);
  }
}
