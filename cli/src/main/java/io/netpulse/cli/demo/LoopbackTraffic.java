package io.netpulse.cli.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Without root there are no namespaces: iperf3 TCP over loopback, sampled on this host's lo. */
final class LoopbackTraffic implements TrafficSetup {

  private final List<Process> processes = new ArrayList<>();
  private final String hostName;
  private long rate;

  LoopbackTraffic() {
    String name;
    try {
      name = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      name = "localhost";
    }
    hostName = name;
  }

  @Override
  public String host() {
    return hostName;
  }

  @Override
  public String iface() {
    return "lo";
  }

  @Override
  public List<String> onMeasuredHost(List<String> command) {
    return command;
  }

  @Override
  public void startTraffic(long bitsPerSecond) throws IOException {
    rate = bitsPerSecond;
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    start(List.of("iperf3", "-s", "-B", "127.0.0.1", "-p", String.valueOf(port)));
    NamespaceTraffic.sleep(300);
    start(List.of("iperf3", "-c", "127.0.0.1", "-p", String.valueOf(port), "-t", "0",
        "-b", String.valueOf(bitsPerSecond), "-i", "0"));
  }

  private void start(List<String> command) throws IOException {
    processes.add(new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start());
  }

  @Override
  public String describe() {
    return "iperf3 TCP over loopback (not root: no network namespaces), "
        + io.netpulse.common.Units.formatBits(rate);
  }

  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.destroy();
      try {
        if (!p.waitFor(3, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    processes.clear();
  }
}
