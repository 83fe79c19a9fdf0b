package io.netpulse.tools.iperf;

import java.util.ArrayList;
import java.util.List;

/** iperf 2's command lines as argument vectors. */
public final class IperfCommands {

  private IperfCommands() {}

  public static List<String> server(int port) {
    return List.of("iperf", "-s", "-p", String.valueOf(port));
  }

  /**
   * {@code iperf -c ADDRESS -p PORT -b RATE -t SECONDS -P STREAMS} (seed 002); {@code perSecond} adds
   * {@code -i 1 --sum-only -f k}: one row a second for all the client's streams, whatever {@code -P}, in whole kbit/s
   * (where the default prints 3 digits), which the steady stop reads.
   */
  public static List<String> client(String address, int port, String rate, long seconds, int streams,
      boolean perSecond) {
    List<String> argv = new ArrayList<>(List.of("iperf", "-c", address, "-p", String.valueOf(port), "-b", rate,
        "-t", String.valueOf(seconds), "-P", String.valueOf(streams)));
    if (perSecond) {
      argv.addAll(List.of("-i", "1", "--sum-only", "-f", "k"));
    }
    return List.copyOf(argv);
  }
}
