package io.netpulse.launcher.connections;

import static io.netpulse.launcher.connections.ConnectionsTestSupport.establishedOnServerPorts;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.rangeOf;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.serverOnFreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Server and client in this JVM, each on its own thread, on 127.0.0.0/8. */
class LoopbackConnectionsTest {

  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @Test
  void holdsThreeThousandOverThreePortsThenLetsGo() throws Exception {
    StringWriter serverOut = new StringWriter();
    ConnectionServer server = serverOnFreePorts(3, 7, new PrintWriter(serverOut, true));
    PortRange ports = rangeOf(server);
    CompletableFuture<Void> serving = CompletableFuture.runAsync(server::run);
    StringWriter clientOut = new StringWriter();
    StringWriter clientErr = new StringWriter();
    ConnectionClient client = new ConnectionClient(new ClientSettings(InetAddress.getLoopbackAddress(), ports,
        List.of(), 3000, 500, Duration.ofSeconds(5), Duration.ofSeconds(10), 100),
        new PrintWriter(clientOut, true), new PrintWriter(clientErr, true));
    CompletableFuture<Void> holding = CompletableFuture.runAsync(client::run);
    try {
      await().atMost(GENEROUS).until(() -> server.stats().open() == 3000 || holding.isDone());
      // counted while held: by ss (the kernel's view) and by both sides' own counts
      assertThat(establishedOnServerPorts(ports, List.of())).isEqualTo(3000);
      assertThat(client.stats().open()).isEqualTo(3000);
      assertThat(client.stats().failed()).isZero();
      holding.get(GENEROUS.toSeconds(), TimeUnit.SECONDS); // the 5 s hold (time for the checks above on a loaded machine) ends the client by itself
      await().atMost(GENEROUS).until(() -> server.stats().open() == 0);
      assertThat(establishedOnServerPorts(ports, List.of())).isZero();
      assertThat(server.stats().accepted()).isEqualTo(3000);
      assertThat(server.stats().peakOpen()).isEqualTo(3000);
      assertThat(clientOut.toString()).containsPattern(
          "connections: summary opened=3000 peak_open=3000 failed=0 closed_by_peer=0 opening_s=[0-9.]+ "
              + "mean_rate=\\d+/s elapsed_s=[0-9.]+");
      assertThat(clientErr.toString()).isEmpty();
    } finally {
      client.stop();
      server.stop();
      serving.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
    }
    assertThat(serverOut.toString()).startsWith("connections: listening ports=" + ports + " (3) bind=0.0.0.0")
        .contains("connections: summary accepted=3000 peak_open=3000");
  }

  @Test
  void spreadsOverSourceAddressesAndStopsOnRequest() throws Exception {
    ConnectionServer server = serverOnFreePorts(2, 1, new PrintWriter(new StringWriter(), true));
    PortRange ports = rangeOf(server);
    CompletableFuture<Void> serving = CompletableFuture.runAsync(server::run);
    List<InetAddress> sources = List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3"));
    ConnectionClient client = new ConnectionClient(new ClientSettings(InetAddress.getLoopbackAddress(), ports,
        sources, 400, 100, null, Duration.ofSeconds(10), 100), new PrintWriter(new StringWriter(), true),
        new PrintWriter(new StringWriter(), true));
    CompletableFuture<Void> holding = CompletableFuture.runAsync(client::run);
    try {
      await().atMost(GENEROUS).until(() -> server.stats().open() == 400 || holding.isDone());
      String sockets = ConnectionsTestSupport.run(List.of("ss", "-Htn", "state", "established",
          "( sport = :" + ports.first() + " or sport = :" + ports.last() + " )"));
      // the server side's peer column (last, maybe IPv4-mapped) shows each source's round-robin half
      assertThat(sockets.lines().filter(l -> l.matches(".*127\\.0\\.0\\.2\\]?:\\d+\\s*")).count())
          .as(sockets).isEqualTo(200);
      assertThat(sockets.lines().filter(l -> l.matches(".*127\\.0\\.0\\.3\\]?:\\d+\\s*")).count())
          .isEqualTo(200);
      assertThat(holding).isNotDone(); // no --hold: holds until stopped
      client.stop();
      holding.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
      await().atMost(GENEROUS).until(() -> server.stats().open() == 0);
    } finally {
      client.stop();
      server.stop();
      serving.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
