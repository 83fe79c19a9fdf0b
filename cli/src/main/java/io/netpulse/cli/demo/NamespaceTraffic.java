package io.netpulse.cli.demo;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.NetHost;
import java.util.ArrayList;
import java.util.List;

/** Two network-namespace hosts joined through a bridge; iperf3 TCP from peer to sut. */
final class NamespaceTraffic implements TrafficSetup {

  private static final int PORT = 5201;
  private final HostNetwork network;
  private final NetHost peer;
  private final NetHost sut;
  private long rate;

  NamespaceTraffic() {
    network = HostNetwork.create("demo", 2);
    peer = network.hosts().get(0);
    sut = network.hosts().get(1);
  }

  @Override
  public String host() {
    return "sut";
  }

  @Override
  public String iface() {
    return sut.iface();
  }

  @Override
  public List<String> onMeasuredHost(List<String> command) {
    List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", sut.namespace()));
    full.addAll(command);
    return full;
  }

  @Override
  public void startTraffic(long bitsPerSecond) throws java.io.IOException {
    rate = bitsPerSecond;
    network.start(sut, List.of("iperf3", "-s", "-B", sut.address(), "-p", String.valueOf(PORT)));
    waitForListener();
    network.start(peer, List.of("iperf3", "-c", sut.address(), "-p", String.valueOf(PORT),
        "-t", "0", "-b", String.valueOf(bitsPerSecond), "-i", "0"));
  }

  private void waitForListener() {
    long deadline = System.currentTimeMillis() + 5000;
    while (System.currentTimeMillis() < deadline) {
      String ss = network.run(sut, List.of("ss", "-Hltn", "sport = :" + PORT), java.time.Duration.ofSeconds(5));
      if (!ss.isBlank()) {
        return;
      }
      sleep(50);
    }
  }

  @Override
  public String describe() {
    return String.format("iperf3 TCP %s -> %s (%s, namespace %s), %s", peer.address(), sut.address(),
        sut.iface(), sut.namespace(), io.netpulse.common.Units.formatBits(rate));
  }

  @Override
  public void close() {
    network.close();
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
