package io.netpulse.launcher.connections;

import static io.netpulse.launcher.connections.ConnectionsTestSupport.establishedOnServerPorts;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.mainCommand;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.rangeOf;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.read;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.runMain;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.serverOnFreePorts;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.start;
import static io.netpulse.launcher.connections.ConnectionsTestSupport.stop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.launcher.connections.ConnectionsTestSupport.Outcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real command line: child JVMs through Main on loopback, and bad usage in-process. */
class ConnectionsCommandTest {

  private static final String CLIENT_PROGRESS =
      "connections: open=\\d+ target=3000 failed=0 in_flight=\\d+ rate=\\d+/s";
  private static final String SERVER_PROGRESS = "connections: accepted=\\d+ open=\\d+ rate=\\d+/s";
  private static final Duration GENEROUS = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void childJvmsHoldThenExitZero() throws Exception {
    PortRange ports = freePorts(3, 11);
    Process server = null;
    Process client = null;
    try {
      server = start(mainCommand(List.of(), List.of("-Xmx64m"), "connections", "server", "--ports",
          ports.toString()), dir, "server");
      Process s = server;
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).contains("listening") || !s.isAlive());
      assertThat(server.isAlive()).as(read(dir.resolve("server.err"))).isTrue();
      client = start(mainCommand(List.of(), List.of("-Xmx64m"), "connections", "client", "--server", "127.0.0.1",
          "--ports", ports.toString(), "--connections", "3000", "--hold", "3s"), dir, "client");
      Process c = client;
      await().atMost(GENEROUS).until(() -> establishedOnServerPorts(ports, List.of()) == 3000 || !c.isAlive());
      assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String clientOut = read(dir.resolve("client.out"));
      assertThat(client.exitValue()).as(read(dir.resolve("client.err"))).isZero();
      List<String> lines = clientOut.lines().toList();
      assertThat(lines).allMatch(l -> l.matches(CLIENT_PROGRESS) || l.startsWith("connections: summary "));
      assertThat(lines).anyMatch(l -> l.matches(CLIENT_PROGRESS.replace("open=\\d+", "open=3000")));
      assertThat(lines.get(lines.size() - 1)).matches("connections: summary opened=3000 peak_open=3000 failed=0 "
          + "closed_by_peer=0 opening_s=[0-9.]+ mean_rate=\\d+/s elapsed_s=[0-9.]+");
      // the server sees every connection go and says so on its next line
      await().atMost(GENEROUS).until(() -> establishedOnServerPorts(ports, List.of()) == 0);
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).lines()
          .reduce((a, b) -> b).orElse("").matches("connections: accepted=3000 open=0 rate=\\d+/s"));
      server.destroy(); // SIGTERM: a normal end
      assertThat(server.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(server.exitValue()).isZero();
      List<String> serverLines = read(dir.resolve("server.out")).lines().toList();
      assertThat(serverLines.get(0)).isEqualTo("connections: listening ports=" + ports + " (3) bind=0.0.0.0");
      assertThat(serverLines.subList(1, serverLines.size() - 1)).isNotEmpty().allMatch(l -> l.matches(SERVER_PROGRESS));
      assertThat(serverLines.get(serverLines.size() - 1))
          .matches("connections: summary accepted=3000 peak_open=3000 elapsed_s=[0-9.]+");
      assertThat(read(dir.resolve("server.err"))).isEmpty();
    } finally {
      stop(client);
      stop(server);
    }
  }

  @Test
  void tooFewFileDescriptorsIsOneLineWithAHint() throws Exception {
    ConnectionServer server = serverOnFreePorts(1, 1, new PrintWriter(new StringWriter(), true));
    Thread serving = new Thread(server::run);
    serving.start();
    Process client = null;
    try {
      client = start(mainCommand(List.of("prlimit", "--nofile=256:256"), List.of("-Xmx64m"), "connections",
          "client", "--server", "127.0.0.1", "--ports", rangeOf(server).toString(), "--connections", "1000"),
          dir, "client");
      assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String err = read(dir.resolve("client.err"));
      assertThat(client.exitValue()).as(err).isEqualTo(2);
      assertThat(err.strip()).matches("netpulse: connections client: Too many open files with \\d+ connections "
          + "open; hint: raise nofile .*prepare: \\{nofile: N\\}.*");
      assertThat(err.lines()).hasSize(1);
      await().atMost(GENEROUS).until(() -> server.stats().open() == 0);
    } finally {
      stop(client);
      server.stop();
      serving.join(GENEROUS.toMillis());
    }
  }

  @Test
  void serverOutOfFileDescriptorsIsOneLineWithAHint() throws Exception {
    PortRange ports = freePorts(2, 1);
    Process server = null;
    ConnectionClient client = null;
    Thread holding = null;
    try {
      server = start(mainCommand(List.of("prlimit", "--nofile=256:256"), List.of("-Xmx64m"), "connections",
          "server", "--ports", ports.toString()), dir, "server");
      Process s = server;
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.out")).contains("listening") || !s.isAlive());
      ConnectionClient c = new ConnectionClient(new ClientSettings(InetAddress.getLoopbackAddress(), ports,
          List.of(), 1000, 100, null, Duration.ofSeconds(5), 100_000), new PrintWriter(new StringWriter(), true),
          new PrintWriter(new StringWriter(), true));
      client = c;
      holding = new Thread(c::run);
      holding.start();
      assertThat(server.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String err = read(dir.resolve("server.err"));
      assertThat(server.exitValue()).as(err).isEqualTo(2);
      assertThat(err.strip()).matches("netpulse: connections server: Too many open files with \\d+ connections "
          + "open; hint: raise nofile .*");
      assertThat(read(dir.resolve("server.out"))).containsPattern("connections: summary accepted=\\d+ ");
    } finally {
      if (client != null) {
        client.stop();
        holding.join(GENEROUS.toMillis());
      }
      stop(server);
    }
  }

  @Test
  void portInUseNamesThePort() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      Outcome o = runMain("connections", "server", "--bind", "127.0.0.1", "--ports", port + ":" + port + ":1");
      assertThat(o.exit()).isEqualTo(2);
      assertThat(o.err().strip()).isEqualTo("netpulse: connections server: cannot listen on port " + port
          + " of 127.0.0.1: Address already in use");
    }
  }

  @Test
  void badPortSpecsAreUsageErrors() {
    assertUsageError(runMain("connections", "server", "--ports", "2000:1000:5"), "FIRST 2000 is after LAST 1000");
    assertUsageError(runMain("connections", "server", "--ports", "60000:70000:2000"), "ports must be 1..65535");
    assertUsageError(runMain("connections", "server", "--ports", "2000:4000:0"), "STEP must be at least 1");
    assertUsageError(runMain("connections", "client", "--server", "127.0.0.1", "--ports", "2000:x",
        "--connections", "5"), "LAST 'x' is not a whole number");
    assertUsageError(runMain("connections", "client", "--server", "127.0.0.1", "--ports", "2000",
        "--connections", "5", "--hold", "10"), "'10' is not a duration");
  }

  @Test
  void refusedEverywhereIsOneClearLine() {
    int port = freePorts(1, 1).first(); // nothing listens there
    Outcome o = runMain("connections", "client", "--server", "127.0.0.1", "--ports", String.valueOf(port),
        "--connections", "50", "--max-failures", "20", "--in-flight", "5");
    assertThat(o.exit()).isEqualTo(2);
    // 21 crosses the limit; up to 4 more were already in flight then
    assertThat(o.err().strip()).matches("netpulse: connections client: cannot connect to 127\\.0\\.0\\.1 ports "
        + port + ":" + port + ":1: 2[1-5] connects failed, last 127\\.0\\.0\\.1:" + port + ": Connection refused");
    assertThat(o.out()).containsPattern("connections: summary opened=0 peak_open=0 failed=2[1-5] ");
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
