package io.netpulse.tools.iperf3;

import java.util.List;

/** iperf3's command lines as argument vectors. One server serves one test at a time: a port per client. */
public final class Iperf3Commands {

  private Iperf3Commands() {}

  public static List<String> server(int port) {
    return List.of("iperf3", "-s", "-p", String.valueOf(port));
  }

  /**
   * A TCP bandwidth client: {@code iperf3 -c TO -p PORT -P STREAMS -b RATE -t SECONDS -i 1 -f k}; {@code -b} is per
   * stream ({@code 0}: unlimited, iperf3's TCP default), {@code -f k} prints whole kbit/s where the default prints three
   * digits (1.27 Gbits/sec), a 0.4 % step the cross-check with sar would feel.
   */
  public static List<String> tcpClient(String to, int port, int streams, String rate, long seconds) {
    return List.of("iperf3", "-c", to, "-p", String.valueOf(port), "-P", String.valueOf(streams), "-b", rate,
        "-t", String.valueOf(seconds), "-i", "1", "-f", "k");
  }

  /** Seed 000's UDP PPS client, in its order: {@code iperf3 -c TO -b RATE -u -t SECONDS -l LENGTH -p PORT}. */
  public static List<String> udpClient(String to, String rate, long seconds, int length, int port) {
    return List.of("iperf3", "-c", to, "-b", rate, "-u", "-t", String.valueOf(seconds), "-l", String.valueOf(length),
        "-p", String.valueOf(port));
  }
}
