package io.netpulse.holder;

import static io.netpulse.holder.ConnectionsTestSupport.establishedOnServerPorts;
import static io.netpulse.holder.ConnectionsTestSupport.rangeOf;
import static io.netpulse.holder.ConnectionsTestSupport.serverOnFreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Server and client in this JVM, each on its own thread, on 127.0.0.0/8. */
@Tag("root")
class LoopbackConnectionsTest {

  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @Test
  void holdsThreeThousandOverThreePortsThenLetsGo() throws Exception {
    StringWriter serverOut = new StringWriter();
    Serving serving = Serving.onFreePorts(3, 7, new PrintWriter(serverOut, true));
    PortSet ports = serving.ports();
    StringWriter clientOut = new StringWriter();
    ConnectionClient client = new ConnectionClient(ClientSettings.to(InetAddress.getLoopbackAddress(), ports)
        .withCap(3000L).withInFlight(500).withHold(Duration.ofSeconds(5)).withMaxFailures(100),
        new PrintWriter(clientOut, true));
    CompletableFuture<Void> holding = CompletableFuture.runAsync(client::run);
    try {
      await().atMost(GENEROUS).until(() -> serving.stats().open() == 3000 || holding.isDone());
      // counted while held: by ss (the kernel's view) and by both sides' own counts
      assertThat(establishedOnServerPorts(ports.bases(), List.of())).isEqualTo(3000);
      assertThat(client.stats().open()).isEqualTo(3000);
      assertThat(client.stats().failed()).isZero();
      assertThat(client.climb()).isEqualTo(new ClimbLine(ClimbEnd.CAP_REACHED, 3000,
          "opened the cap of 3000 connections"));
      holding.get(GENEROUS.toSeconds(), TimeUnit.SECONDS); // the 5 s hold (time for the checks above on a loaded machine) ends the client by itself
      await().atMost(GENEROUS).until(() -> serving.stats().open() == 0);
      assertThat(establishedOnServerPorts(ports.bases(), List.of())).isZero();
      assertThat(serving.stats().accepted()).isEqualTo(3000);
      assertThat(serving.stats().peakOpen()).isEqualTo(3000);
      assertThat(clientOut.toString()).contains(client.climb().line()).containsPattern(
          "connections: summary ended_by=cap_reached opened=3000 peak_open=3000 failed=0 refused=0 timed_out=0 "
              + "closed_by_peer=0 opening_s=[0-9.]+ mean_rate=\\d+/s elapsed_s=[0-9.]+");
    } finally {
      client.stop();
      serving.stop();
    }
    assertThat(serverOut.toString()).startsWith("connections: listening ports=" + ports + " (3) bind=0.0.0.0 nofile ")
        .contains("connections: summary accepted=3000 peak_open=3000 accept_errors=0 ");
  }

  @Test
  void spreadsOverSourceAddressesAndStopsOnRequest() throws Exception {
    Serving serving = Serving.onFreePorts(2, 1, new PrintWriter(new StringWriter(), true));
    PortSet ports = serving.ports();
    List<InetAddress> sources = List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3"));
    ConnectionClient client = new ConnectionClient(ClientSettings.to(InetAddress.getLoopbackAddress(), ports)
        .withSources(sources).withCap(400L).withInFlight(100), new PrintWriter(new StringWriter(), true));
    CompletableFuture<Void> holding = CompletableFuture.runAsync(client::run);
    try {
      await().atMost(GENEROUS).until(() -> serving.stats().open() == 400 || holding.isDone());
      String sockets = ConnectionsTestSupport.run(List.of("ss", "-Htn", "state", "established",
          "( sport = :" + ports.bases().first() + " or sport = :" + ports.bases().last() + " )"));
      // the server side's peer column (last, maybe IPv4-mapped) shows each source's round-robin half
      assertThat(sockets.lines().filter(l -> l.matches(".*127\\.0\\.0\\.2\\]?:\\d+\\s*")).count())
          .as(sockets).isEqualTo(200);
      assertThat(sockets.lines().filter(l -> l.matches(".*127\\.0\\.0\\.3\\]?:\\d+\\s*")).count())
          .isEqualTo(200);
      assertThat(holding).isNotDone(); // no --hold: holds until stopped
      client.stop();
      holding.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
      await().atMost(GENEROUS).until(() -> serving.stats().open() == 0);
    } finally {
      client.stop();
      serving.stop();
    }
  }

  /**
   * No cap: the climb ends when every (source, server port) pair has used the local range, here a 40-port stand-in
   * for the kernel's ephemeral range (the real one is narrowed in a namespace by the run's acceptance test).
   */
  @Test
  void withoutACapTheClimbEndsWhenEverySourceAndPortPairIsOutOfLocalPorts() throws Exception {
    Serving serving = Serving.onFreePorts(3, 1, new PrintWriter(new StringWriter(), true));
    PortSet ports = serving.ports();
    List<InetAddress> sources = List.of(InetAddress.getByName("127.0.0.4"), InetAddress.getByName("127.0.0.5"));
    StringWriter out = new StringWriter();
    // 12000-12039: below the ephemeral range and the servers' 20000-32000, so no socket of this test holds one
    ConnectionClient client = new ConnectionClient(ClientSettings.to(InetAddress.getLoopbackAddress(), ports)
        .withSources(sources).withInFlight(50), new PrintWriter(out, true), new LocalPorts(12_000, 12_039, 1));
    CompletableFuture<Void> holding = CompletableFuture.runAsync(client::run);
    try {
      await().atMost(GENEROUS).until(() -> client.climb() != null || holding.isDone());
      ClimbLine climb = client.climb();
      assertThat(climb).as(out.toString()).isNotNull();
      assertThat(climb.end()).isEqualTo(ClimbEnd.CLIENT_PORTS);
      // 2 sources × 3 server ports × 40 local ports, every one of them
      assertThat(climb.open()).isEqualTo(240);
      assertThat(climb.detail()).isEqualTo("each of the 2 source addresses used its 40 local ports (12000-12039) "
          + "toward each of the 3 server ports: add source addresses or server ports");
      await().atMost(GENEROUS).until(() -> serving.stats().open() == 240);
      assertThat(client.stats().failed()).isZero();
      assertThat(holding).isNotDone(); // the climb is over, the hold goes on
    } finally {
      client.stop();
      serving.stop();
    }
    holding.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void stillClimbingWhenTheDurationEndsIsTimeUp() throws Exception {
    // a listener that never accepts, with a backlog of 1: once its queue is full the kernel drops further SYNs, so
    // the one connect in flight hangs (for longer than the duration) instead of failing or succeeding
    try (ServerSocketChannel stuck = ServerSocketChannel.open()) {
      stuck.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
      PortSet ports = PortSet.of(new PortRange(stuck.socket().getLocalPort(), stuck.socket().getLocalPort(), 1));
      StringWriter out = new StringWriter();
      ConnectionClient client = new ConnectionClient(ClientSettings.to(InetAddress.getLoopbackAddress(), ports)
          .withInFlight(1).withDuration(Duration.ofMillis(1500)), new PrintWriter(out, true));
      client.run(); // returns at the end of its duration
      assertThat(client.climb().end()).as(out.toString()).isEqualTo(ClimbEnd.TIME_UP);
      assertThat(client.climb().detail()).matches("still opening at [12] connections when its duration ended "
          + "\\(0 failed connects so far\\): the count is a lower bound");
      assertThat(out.toString()).contains("connections: summary ended_by=time_up ");
    }
  }

  /** A server on free ports, serving on a thread of its own: the other side of the client each test runs. */
  private record Serving(ConnectionServer server, PortSet ports, CompletableFuture<Void> loop) {

    static Serving onFreePorts(int count, int step, PrintWriter out) {
      ConnectionServer server = serverOnFreePorts(count, step, out);
      return new Serving(server, PortSet.of(rangeOf(server)), CompletableFuture.runAsync(server::run));
    }

    ServerStats stats() {
      return server.stats();
    }

    /** Stops the server and waits for its loop to end, which prints its summary. */
    void stop() throws Exception {
      server.stop();
      loop.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
