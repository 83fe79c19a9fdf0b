package io.netpulse.tools.iperf3;

import java.util.List;

/** iperf3's command lines as argument vectors. One server serves one test at a time: a port per client. */
public final class Iperf3Commands {

  private Iperf3Commands() {}

  public static List<String> server(int port) {
    return List.of("iperf3", "-s", "-p", String.valueOf(port));
  }

  /** Seed 000's UDP PPS client, in its order: {@code iperf3 -c TO -b RATE -u -t SECONDS -l LENGTH -p PORT}. */
  public static List<String> udpClient(String to, String rate, long seconds, int length, int port) {
    return List.of("iperf3", "-c", to, "-b", rate, "-u", "-t", String.valueOf(seconds), "-l", String.valueOf(length),
        "-p", String.valueOf(port));
  }
}
