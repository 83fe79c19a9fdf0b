package io.netpulse.holder;

import static io.netpulse.holder.ConnectionsTestSupport.establishedOnServerPorts;
import static io.netpulse.holder.ConnectionsTestSupport.jarCommand;
import static io.netpulse.holder.ConnectionsTestSupport.rangeOf;
import static io.netpulse.holder.ConnectionsTestSupport.read;
import static io.netpulse.holder.ConnectionsTestSupport.runMain;
import static io.netpulse.holder.ConnectionsTestSupport.serverOnFreePorts;
import static io.netpulse.holder.ConnectionsTestSupport.start;
import static io.netpulse.holder.ConnectionsTestSupport.stop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.holder.ConnectionsTestSupport.Outcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real command line: child JVMs of the built jar on loopback, and bad usage in-process. */
@Tag("root")
class ConnectionsCommandTest {

  private static final String CLIENT_PROGRESS =
      "connections: open=\\d+ cap=3000 failed=0 in_flight=\\d+ rate=\\d+/s";
  private static final String SERVER_PROGRESS = "connections: accepted=\\d+ open=\\d+ rate=\\d+/s";
  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void childJvmsHoldThenExitZero() throws Exception {
    PortRange ports = freePorts(3, 11);
    Process server = null;
    Process client = null;
    try {
      server = start(jarCommand(List.of(), List.of("-Xmx64m"), "server", "--ports",
          ports.toString()), dir, "server");
      Process s = server;
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).contains("listening") || !s.isAlive());
      assertThat(server.isAlive()).as(read(dir.resolve("server.err"))).isTrue();
      client = start(jarCommand(List.of(), List.of("-Xmx64m"), "client", "--server", "127.0.0.1",
          "--ports", ports.toString(), "--connections", "3000", "--hold", "3s"), dir, "client");
      Process c = client;
      await().atMost(GENEROUS).until(() -> establishedOnServerPorts(ports, List.of()) == 3000 || !c.isAlive());
      assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String clientOut = read(dir.resolve("client.out"));
      assertThat(client.exitValue()).as(read(dir.resolve("client.err"))).isZero();
      List<String> lines = clientOut.lines().toList();
      assertThat(lines.get(0)).matches("connections: client server=127\\.0\\.0\\.1 ports=" + ports + " \\(3\\) "
          + "sources=kernel local_ports=\\d+ local ports \\(\\d+-\\d+\\) nofile \\d+ cap=3000");
      assertThat(lines).contains("connections: climb ended_by=cap_reached side=plan open=3000 | opened the cap of "
          + "3000 connections");
      assertThat(lines.subList(1, lines.size() - 1)).allMatch(l -> l.matches(CLIENT_PROGRESS)
          || l.startsWith("connections: climb "));
      assertThat(lines).anyMatch(l -> l.matches(CLIENT_PROGRESS.replace("open=\\d+", "open=3000")));
      assertThat(lines.get(lines.size() - 1)).matches("connections: summary ended_by=cap_reached opened=3000 "
          + "peak_open=3000 failed=0 refused=0 timed_out=0 closed_by_peer=0 opening_s=[0-9.]+ mean_rate=\\d+/s "
          + "elapsed_s=[0-9.]+");
      // the server sees every connection go and says so on its next line
      await().atMost(GENEROUS).until(() -> establishedOnServerPorts(ports, List.of()) == 0);
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).lines()
          .reduce((a, b) -> b).orElse("").matches("connections: accepted=3000 open=0 rate=\\d+/s"));
      server.destroy(); // SIGTERM: a normal end
      assertThat(server.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.exitValue()).isZero();
      List<String> serverLines = read(dir.resolve("server.out")).lines().toList();
      assertThat(serverLines.get(0)).matches("connections: listening ports=" + ports + " \\(3\\) bind=0\\.0\\.0\\.0 "
          + "nofile \\d+");
      assertThat(serverLines.subList(1, serverLines.size() - 1)).isNotEmpty().allMatch(l -> l.matches(SERVER_PROGRESS));
      assertThat(serverLines.get(serverLines.size() - 1))
          .matches("connections: summary accepted=3000 peak_open=3000 accept_errors=0 elapsed_s=[0-9.]+");
      assertThat(read(dir.resolve("server.err"))).isEmpty();
    } finally {
      stop(client);
      stop(server);
    }
  }

  /** The client's own limit ends the climb: it holds what it has and says whose limit that was. */
  @Test
  void clientOutOfFileDescriptorsEndsTheClimbAndHolds() throws Exception {
    ConnectionServer server = serverOnFreePorts(1, 1, new PrintWriter(new StringWriter(), true));
    Thread serving = new Thread(server::run);
    serving.start();
    Process client = null;
    try {
      client = start(jarCommand(List.of("prlimit", "--nofile=256:256"), List.of("-Xmx64m"), "client", "--server", "127.0.0.1", "--ports", rangeOf(server).toString(), "--duration", "4s"),
          dir, "client");
      assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String out = read(dir.resolve("client.out"));
      assertThat(client.exitValue()).as(read(dir.resolve("client.err"))).isZero();
      assertThat(out).containsPattern("connections: climb ended_by=client_open_files side=client open=(\\d+) \\| "
          + "Too many open files with \\1 connections open \\(nofile 256 for this process\\); hint: raise nofile "
          + ".*prepare: \\{nofile: N\\}.*");
      assertThat(out).containsPattern("connections: summary ended_by=client_open_files opened=\\d{3} ");
      assertThat(read(dir.resolve("client.err"))).isEmpty();
      await().atMost(GENEROUS).until(() -> server.stats().open() == 0);
      assertThat(server.stats().peakOpen()).isBetween(100L, 256L);
    } finally {
      stop(client);
      server.stop();
      serving.join(GENEROUS.toMillis());
    }
  }

  /**
   * The SUT's limit: the server keeps what it holds and says so; beyond its accept queue the kernel drops SYNs, so
   * the client's climb ends in SYN timeouts (the launcher puts the two together).
   */
  @Test
  void serverOutOfFileDescriptorsKeepsHoldingAndSaysSo() throws Exception {
    PortSet ports = PortSet.of(freePorts(2, 1));
    Process server = null;
    ConnectionClient client = null;
    Thread holding = null;
    try {
      server = start(jarCommand(List.of("prlimit", "--nofile=256:256"), List.of("-Xmx64m"), "server", "--ports", ports.toString()), dir, "server");
      Process s = server;
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).contains("listening") || !s.isAlive());
      StringWriter clientOut = new StringWriter();
      ConnectionClient c = new ConnectionClient(ClientSettings.to(InetAddress.getLoopbackAddress(), ports)
          .withInFlight(100).withConnectTimeout(Duration.ofSeconds(2)).withMaxFailures(100),
          new PrintWriter(clientOut, true));
      client = c;
      holding = new Thread(c::run);
      holding.start();
      await().atMost(GENEROUS).until(() -> c.climb() != null || !s.isAlive());
      assertThat(server.isAlive()).as(read(dir.resolve("server.err"))).isTrue();
      assertThat(c.climb().end()).as(clientOut.toString()).isEqualTo(ClimbEnd.SYN_TIMEOUTS);
      assertThat(c.climb().detail()).matches("\\d+ connects in a row unanswered, last 127\\.0\\.0\\.1:\\d+: connect "
          + "timed out after 2000 ms: the SUT drops SYNs .*");
      String serverOut = read(dir.resolve("server.out"));
      assertThat(serverOut).containsPattern("connections: climb ended_by=sut_open_files side=sut open=\\d{3} \\| Too "
          + "many open files with \\d+ connections held \\(nofile 256 for the server process\\); hint: raise nofile");
      ClimbLine limit = ClimbLine.lastIn(serverOut).orElseThrow();
      // the server holds what it accepted; the rest waited in its accept queues, established from the client's side
      assertThat(c.stats().open()).isGreaterThan(limit.open());
      server.destroy(); // SIGTERM: a normal end, as after a repetition
      assertThat(server.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.exitValue()).as(read(dir.resolve("server.err"))).isZero();
      assertThat(read(dir.resolve("server.out"))).containsPattern("connections: summary accepted=\\d+ peak_open=\\d+ "
          + "accept_errors=[1-9]\\d* ");
    } finally {
      if (client != null) {
        client.stop();
        holding.join(GENEROUS.toMillis());
      }
      stop(server);
    }
  }

  @Test
  void aSourceAddressTheHostLacksIsOneClearLine() {
    // 192.0.2.1 (TEST-NET-1) is on no interface here: the bind is refused locally, nothing is sent
    Outcome o = runMain("client", "--server", "127.0.0.1", "--ports", "20000", "--source",
        "192.0.2.1", "--duration", "5s");
    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err().strip()).isEqualTo("netpulse: connections client: cannot use source address 192.0.2.1: "
        + "Cannot assign requested address; is it an address of this host?");
  }

  @Test
  void portInUseNamesThePort() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      Outcome o = runMain("server", "--bind", "127.0.0.1", "--ports", port + ":" + port + ":1");
      assertThat(o.exit()).isEqualTo(2);
      assertThat(o.err().strip()).isEqualTo("netpulse: connections server: cannot listen on port " + port
          + " of 127.0.0.1: Address already in use");
    }
  }

  @Test
  void badPortSpecsAreUsageErrors() {
    assertUsageError(runMain("server", "--ports", "2000:1000:5"), "FIRST 2000 is after LAST 1000");
    assertUsageError(runMain("server", "--ports", "60000:70000:2000"), "ports must be 1..65535");
    assertUsageError(runMain("server", "--ports", "2000:4000:0"), "STEP must be at least 1");
    assertUsageError(runMain("client", "--server", "127.0.0.1", "--ports", "2000:x",
        "--connections", "5"), "LAST 'x' is not a whole number");
    assertUsageError(runMain("client", "--server", "127.0.0.1", "--ports", "2000",
        "--connections", "5", "--hold", "10"), "'10' is not a duration");
    Outcome overlap = runMain("server", "--ports", "2000:30000:2000", "--block", "2001");
    assertThat(overlap.exit()).isEqualTo(2);
    assertThat(overlap.err()).contains("--ports with --block: blocks of 2001 ports every 2000 ports overlap")
        .doesNotContain("\tat ");
  }

  @Test
  void refusedEverywhereIsOneClearLine() {
    int port = freePorts(1, 1).first(); // nothing listens there
    Outcome o = runMain("client", "--server", "127.0.0.1", "--ports", String.valueOf(port),
        "--max-failures", "20", "--in-flight", "5");
    assertThat(o.exit()).isEqualTo(2);
    // 20 in a row end the climb; up to 4 more were already in flight then
    assertThat(o.err().strip()).matches("netpulse: connections client: cannot connect to 127\\.0\\.0\\.1 ports "
        + port + ":" + port + ":1: 2[0-4] connects in a row refused, last 127\\.0\\.0\\.1:" + port
        + ": Connection refused: nothing listens there any more, or the SUT rejects connections");
    assertThat(o.out()).containsPattern("connections: summary ended_by=error opened=0 peak_open=0 failed=2[0-4] "
        + "refused=2[0-4] ");
  }

  private static void assertUsageError(Outcome o, String message) {
    assertThat(o.exit()).isEqualTo(2);
    assertThat(o.err()).contains("Invalid value for option").contains(message).doesNotContain("\tat ");
  }

  /** A range that was free a moment ago (bound and released by an in-process server). */
  private static PortRange freePorts(int count, int step) {
    ConnectionServer probe = serverOnFreePorts(count, step, new PrintWriter(new StringWriter(), true));
    PortRange ports = rangeOf(probe);
    probe.close();
    return ports;
  }
}
