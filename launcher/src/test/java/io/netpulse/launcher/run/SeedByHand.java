package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Seeds 000 and 002's throughput procedures typed by hand on the namespace hosts, none of netpulse's code in the
 * way: the servers, then the clients for warm-up + measured + tail seconds, and on the SUT a sar started after the
 * warm-up with a count that ends before the clients do, as the seeds' operator does (seed 000: {@code netperf -l
 * 300}, then {@code sar -n DEV 1 180}). The figure is the mean of sar's rows wholly inside the clients' traffic,
 * split on whitespace by {@link ByHand}. The seeds' daemons ({@code netserver}) run in the foreground
 * ({@code -D}) so that they are stopped by PID.
 */
final class SeedByHand {

  /** sysstat's kB is 1024 bytes: kB/s × 8192 = bit/s. */
  static final double SAR_KB_TO_BITS = 1024 * 8;
  /** Seconds the clients run past sar's last row, so that every row is a second of traffic. */
  private static final int TAIL_SECONDS = 2;

  private SeedByHand() {}

  /** A command typed on a host; {@code port} is the port it listens on (servers), else 0. */
  record Command(NetHost host, List<String> words, int port) {}

  /**
   * One procedure: its servers, clients, sar's host, sar's interval ({@code sar -n DEV S}) and the sar column the
   * figure is read from.
   */
  record Procedure(String name, List<Command> servers, List<Command> clients, NetHost sar, int sarIntervalSeconds,
      ToDoubleFunction<ByHand.SarRow> column) {}

  /** A by-hand figure and the per-row values it is the mean of. */
  record Figure(double value, List<Double> rows) {}

  /**
   * Seed 000's RX (or, {@code rx} false, TX) PPS: {@code iperf3 -s -p P} / {@code iperf3 -c … -b 0M -u -t T -l 64
   * -p P}.
   */
  static Procedure pps(TestHosts hosts, boolean rx, int streams, int firstPort, int clientSeconds) {
    return perStream(rx ? "rx_pps" : "tx_pps", hosts, rx, streams, firstPort,
        port -> List.of("iperf3", "-s", "-p", port),
        (receiver, port) -> List.of("iperf3", "-c", receiver, "-b", "0M", "-u", "-t", String.valueOf(clientSeconds),
            "-l", "64", "-p", port),
        rx ? ByHand.SarRow::rxPacketsPerS : ByHand.SarRow::txPacketsPerS);
  }

  /**
   * Seed 000's RX (TX) bandwidth: {@code netserver -p P} / {@code netperf -H … -t TCP_STREAM -l T -p P -- -m 1440};
   * the figure in bit/s.
   */
  static Procedure bandwidth(TestHosts hosts, boolean rx, int streams, int firstPort, int clientSeconds) {
    return perStream(rx ? "rx_bandwidth" : "tx_bandwidth", hosts, rx, streams, firstPort,
        port -> List.of("netserver", "-D", "-p", port),
        (receiver, port) -> List.of("netperf", "-H", receiver, "-t", "TCP_STREAM", "-l",
            String.valueOf(clientSeconds), "-p", port, "--", "-m", "1440"),
        rx ? r -> r.rxKilobytesPerS() * SAR_KB_TO_BITS : r -> r.txKilobytesPerS() * SAR_KB_TO_BITS);
  }

  /**
   * Seed 000's {@code for i in `seq …`} loops: per stream a server on the receiver on its own port and a client on
   * the sender to it, the SUT receiving in RX ({@code rx}) and the peer otherwise; sar on the SUT every second.
   * {@code server} types a server's words for its port, {@code client} a client's for the receiver's address and port.
   */
  private static Procedure perStream(String name, TestHosts hosts, boolean rx, int streams, int firstPort,
      Function<String, List<String>> server, BiFunction<String, String, List<String>> client,
      ToDoubleFunction<ByHand.SarRow> column) {
    NetHost receiver = rx ? hosts.sut() : hosts.peer();
    NetHost sender = rx ? hosts.peer() : hosts.sut();
    List<Command> servers = new ArrayList<>();
    List<Command> clients = new ArrayList<>();
    for (int i = 0; i < streams; i++) {
      String port = String.valueOf(firstPort + i);
      servers.add(new Command(receiver, server.apply(port), firstPort + i));
      clients.add(new Command(sender, client.apply(receiver.address(), port), 0));
    }
    return new Procedure(name, servers, clients, hosts.sut(), 1, column);
  }

  /**
   * Seed 002's UDP_STREAM: {@code netserver} and {@code sar -n DEV 2} on the SUT, {@code ./netperf -H SUT -l T -t
   * UDP_STREAM -- -m 1} from each sender; the figure is the SUT's rxpck/s.
   */
  static Procedure udpStream(TestHosts hosts, List<NetHost> senders, int clientSeconds) {
    List<Command> clients = senders.stream().map(s -> new Command(s, List.of("netperf", "-H", hosts.sut().address(),
        "-l", String.valueOf(clientSeconds), "-t", "UDP_STREAM", "--", "-m", "1"), 0)).toList();
    return new Procedure("udp_stream", List.of(new Command(hosts.sut(), List.of("netserver", "-D"), 12865)),
        clients, hosts.sut(), 2, ByHand.SarRow::rxPacketsPerS);
  }

  /** The clients' run time for {@code warmupSeconds} + {@code measuredSeconds} of sar and a tail. */
  static int clientSeconds(int warmupSeconds, int measuredSeconds) {
    return warmupSeconds + measuredSeconds + TAIL_SECONDS;
  }

  /** Types {@code p} on the hosts; sar samples {@code measuredSeconds} from {@code warmupSeconds} into the traffic. */
  static Figure run(TestHosts hosts, Procedure p, int warmupSeconds, int measuredSeconds, Path dir, String label)
      throws Exception {
    HostNetwork net = hosts.network();
    int clientSeconds = clientSeconds(warmupSeconds, measuredSeconds);
    int count = measuredSeconds / p.sarIntervalSeconds();
    Path sarLog = dir.resolve("by-hand-" + p.name() + "-" + label + "-sar.txt");
    List<Process> servers = new ArrayList<>();
    List<Process> clients = new ArrayList<>();
    List<Path> clientLogs = new ArrayList<>();
    Process sar = null;
    try {
      for (Command s : p.servers()) {
        servers.add(net.start(s.host(), s.words(), dir.resolve("by-hand-" + p.name() + "-" + label + "-server.log")));
      }
      for (Command s : p.servers()) {
        hosts.awaitListening(s.host(), s.port());
      }
      long trafficStartMs = System.currentTimeMillis();
      for (Command c : p.clients()) {
        Path log = dir.resolve("by-hand-" + p.name() + "-" + label + "-client-" + clients.size() + ".log");
        clientLogs.add(log);
        clients.add(net.start(c.host(), c.words(), log));
      }
      Thread.sleep(Math.max(0, trafficStartMs + warmupSeconds * 1000L - System.currentTimeMillis()));
      long sarStartedMs = System.currentTimeMillis();
      sar = net.start(p.sar(), List.of("env", "LC_ALL=C", "S_TIME_FORMAT=ISO", "TZ=UTC", "sar", "-n", "DEV",
          String.valueOf(p.sarIntervalSeconds()), String.valueOf(count)), sarLog);
      assertThat(sar.waitFor(measuredSeconds + 30L, TimeUnit.SECONDS)).as("by-hand sar of %s ended", p.name()).isTrue();
      for (int i = 0; i < clients.size(); i++) {
        boolean ended = clients.get(i).waitFor(clientSeconds + 30L, TimeUnit.SECONDS);
        String out = Files.readString(clientLogs.get(i));
        assertThat(ended).as("by-hand client %d of %s (%s) ended: %s", i, p.name(), label, out).isTrue();
        assertThat(clients.get(i).exitValue()).as("by-hand client %d of %s (%s): %s", i, p.name(), label, out)
            .isZero();
      }
      String sarText = Files.readString(sarLog);
      // sar started after the warm-up, so every row it printed should be wholly inside the traffic; a row lost at an
      // edge is a late sar start on a loaded machine, more than one means the clocks disagree
      List<ByHand.SarRow> rows = ByHand.inWindow(ByHand.sarRows(sarText, p.sar().iface()), trafficStartMs,
          trafficStartMs + clientSeconds * 1000L, p.sarIntervalSeconds());
      assertThat(rows).as("by-hand sar rows of %s (%s) wholly inside its traffic, %s to %s (clients of %d s, sar "
              + "started %d ms after the traffic):%n%s", p.name(), label, java.time.Instant.ofEpochMilli(trafficStartMs),
          java.time.Instant.ofEpochMilli(trafficStartMs + clientSeconds * 1000L), clientSeconds,
          sarStartedMs - trafficStartMs, sarText)
          .hasSizeGreaterThanOrEqualTo(count - 1);
      List<Double> values = rows.stream().map(p.column()::applyAsDouble).toList();
      return new Figure(values.stream().mapToDouble(Double::doubleValue).average().orElseThrow(), values);
    } finally {
      if (sar != null) {
        net.stop(sar);
      }
      clients.forEach(net::stop);
      servers.forEach(net::stop);
    }
  }
}
