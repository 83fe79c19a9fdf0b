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

  /**
   * Seed 000's UDP PPS client, in its order: {@code iperf3 -c TO -b RATE -u -t SECONDS -l LENGTH -p PORT}, run by
   * {@code stdbuf -oL}: its output goes to a pipe, where stdio holds the {@link #UDP_SET_UP} line back until the first
   * interval report a second later ({@code --forceflush} flushes only the reports), and the launcher waits for that
   * line before it starts the next client.
   */
  public static List<String> udpClient(String to, String rate, long seconds, int length, int port) {
    return List.of("stdbuf", "-oL", "iperf3", "-c", to, "-b", rate, "-u", "-t", String.valueOf(seconds), "-l",
        String.valueOf(length), "-p", String.valueOf(port));
  }

  /**
   * In a client's output once its stream is set up ({@code [  5] local A port P connected to B port Q}): iperf3
   * prints it after the server has answered the UDP stream's hello datagram.
   */
  public static final String UDP_SET_UP = " connected to ";
}
