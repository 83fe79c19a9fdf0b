package io.netpulse.launcher.connections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.remote.HolderJar;
import io.netpulse.testkit.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's layout on the test hosts: servers on the sut's ports 2000..64000 step 2000, clients on the peer,
 * each {@code java -jar} of the connection holder's jar that run puts on hosts (netpulse-holder.jar), started in
 * its namespace under prlimit; the count comes from {@code ss -s} in the sut, as the procedure reads it. Needs root
 * (skipped otherwise).
 *
 * <p>Containers often cap nofile's hard limit (20000 here) and deny CAP_SYS_RESOURCE, so prlimit can raise the
 * soft limit only that far: 20000 connections are held by two servers (the two halves of the seed's ports) and two
 * clients of 10000, each process well under its limit.
 */
@Tag("root")
class NamespaceConnectionsTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final String SEED_PORTS = "2000:64000:2000";
  private static final Duration GENEROUS = Duration.ofSeconds(120);
  private static final List<String> NOFILE = List.of("prlimit", "--nofile=" + nofile() + ":" + nofile());

  /** 200000 as the seed asks, or the hard limit when that is lower and cannot be raised. */
  private static long nofile() {
    try {
      String hard = run(List.of("prlimit", "--nofile", "--output", "HARD", "--noheadings"))
          .strip();
      return hard.equals("unlimited") ? 200_000 : Math.min(200_000, Long.parseLong(hard));
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the nofile hard limit with prlimit", e);
    }
  }

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stopWhatWeStarted() {
    for (Process p : started) {
      HOSTS.network().stop(p); // by this process's own PID: SIGTERM, then SIGKILL
    }
  }

  private Process startIn(NetHost host, String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(NOFILE);
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-jar",
        HolderJar.locate(null).toString()));
    command.addAll(List.of(args));
    Process p = HOSTS.network().start(host, command, dir.resolve(name + ".log"));
    started.add(p);
    return p;
  }

  /** {@code ss -s}'s TCP estab count (what the procedure's result is read from). */
  private static long ssSummaryEstab(List<String> prefix) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of("ss", "-s"));
    String output = run(command);
    Matcher m = Pattern.compile("estab (\\d+)").matcher(output);
    if (!m.find()) {
      throw new IllegalStateException("no 'estab N' in ss -s output: " + output);
    }
    return Long.parseLong(m.group(1));
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(command + " failed: " + output);
      }
      return output;
    } finally {
      p.destroyForcibly();
    }
  }

  private static String tail(Path file) {
    List<String> lines = read(file).lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void twentyThousandFromPeerHeldOnSut() throws Exception {
    NetHost sut = HOSTS.sut();
    List<String> halves = List.of("2000:32000:2000", "34000:64000:2000");
    List<Process> servers = new ArrayList<>();
    for (int i = 0; i < halves.size(); i++) {
      servers.add(startIn(sut, "server" + i, "server", "--ports", halves.get(i)));
    }
    for (int i = 0; i < servers.size(); i++) {
      Path log = dir.resolve("server" + i + ".log");
      Process server = servers.get(i);
      await().atMost(GENEROUS).until(() -> read(log).contains("listening") || !server.isAlive());
      assertThat(server.isAlive()).as(read(log)).isTrue();
    }
    List<Process> clients = new ArrayList<>();
    for (int i = 0; i < halves.size(); i++) {
      clients.add(startIn(HOSTS.peer(), "client" + i, "client", "--server", sut.address(),
          "--ports", halves.get(i), "--connections", "10000", "--hold", "10m"));
    }
    List<String> inSut = List.of("ip", "netns", "exec", sut.namespace());
    try {
      await().atMost(GENEROUS).pollInterval(Duration.ofSeconds(1))
          .until(() -> ssSummaryEstab(inSut) >= 20_000
              || clients.stream().anyMatch(c -> !c.isAlive()));
    } catch (org.awaitility.core.ConditionTimeoutException e) { // say how far it got: once in CI it did not in 2 min
      throw new AssertionError("20,000 not established on the SUT within " + GENEROUS + ": " + ssSummaryEstab(inSut)
          + "\n--- client0\n" + tail(dir.resolve("client0.log")) + "\n--- client1\n" + tail(dir.resolve("client1.log"))
          + "\n--- server0\n" + tail(dir.resolve("server0.log")), e);
    }
    assertThat(ssSummaryEstab(inSut)).as(read(dir.resolve("client0.log")))
        .isGreaterThanOrEqualTo(20_000);
    for (int i = 0; i < clients.size(); i++) {
      Process client = clients.get(i);
      client.destroy(); // SIGTERM ends the hold early: still a normal end
      assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
      String clientLog = read(dir.resolve("client" + i + ".log"));
      assertThat(client.exitValue()).as(clientLog).isZero();
      // SIGTERM may come before the first progress line: only their form is certain, and the summary
      assertThat(clientLog.lines()).allMatch(l -> l.matches("connections: open=\\d+ cap=10000 failed=0 "
          + "in_flight=\\d+ rate=\\d+/s|connections: (client|climb|summary) .*"));
      assertThat(clientLog).contains("connections: climb ended_by=cap_reached side=plan open=10000 | ")
          .containsPattern("connections: summary ended_by=cap_reached opened=10000 peak_open=10000 failed=0 ");
    }
    await().atMost(GENEROUS).pollInterval(Duration.ofSeconds(1))
        .until(() -> ssSummaryEstab(inSut) < 100);
    for (int i = 0; i < servers.size(); i++) {
      Path log = dir.resolve("server" + i + ".log");
      await().atMost(GENEROUS).until(() -> read(log).lines().reduce((a, b) -> b).orElse("")
          .matches("connections: accepted=10000 open=0 rate=\\d+/s"));
    }
  }

  @Test
  void unreachableServerIsOneClearLine() throws Exception {
    String unused = HOSTS.sut().address().replaceAll("\\.\\d+$", ".3"); // .1 peer, .2 sut, .254 bridge
    Process client = startIn(HOSTS.peer(), "client", "client", "--server", unused,
        "--ports", SEED_PORTS, "--connections", "100", "--in-flight", "10", "--max-failures", "5",
        "--connect-timeout", "2s");
    assertThat(client.waitFor(GENEROUS.toSeconds(), TimeUnit.SECONDS)).isTrue();
    String log = read(dir.resolve("client.log"));
    assertThat(client.exitValue()).as(log).isEqualTo(2);
    assertThat(log).containsPattern("netpulse: connections client: cannot connect to " + unused.replace(".", "\\.")
        + " ports 2000:64000:2000: \\d+ connects in a row (failed|unanswered), last " + unused.replace(".", "\\.")
        + ":\\d+: (No route to host|connect timed out after 2000 ms)")
        .doesNotContain("\tat ").doesNotContain("Exception");
  }

  /**
   * The client's ephemeral range, narrowed to 1,000 ports in its namespace, is what each (source address, server
   * port) pair can reach: from two addresses to 4 server ports the climb ends at 8,000 with client_ports.
   */
  @Test
  void eachSourceAddressReachesTheRangeOncePerServerPort() throws Exception {
    NetHost peer = HOSTS.peer();
    String second = peer.address().replaceAll("\\.\\d+$", ".12");
    String range = HOSTS.exec(peer, "cat", "/proc/sys/net/ipv4/ip_local_port_range").strip().replaceAll("\\s+", " ");
    HOSTS.exec(peer, "sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=40000 40999");
    HOSTS.exec(peer, "ip", "addr", "add", second + "/24", "dev", peer.iface());
    try {
      NetHost sut = HOSTS.sut();
      Process server = startIn(sut, "server", "server", "--ports", "2000:4000:2000", "--block", "2");
      await().atMost(GENEROUS).until(() -> read(dir.resolve("server.log")).contains("listening") || !server.isAlive());
      Process client = startIn(peer, "client", "client", "--server", sut.address(), "--ports",
          "2000:4000:2000", "--block", "2", "--source", peer.address() + "," + second, "--duration", "60s");
      await().atMost(GENEROUS).until(() -> read(dir.resolve("client.log")).contains("connections: climb ")
          || !client.isAlive());
      String log = read(dir.resolve("client.log"));
      assertThat(log).contains("local_ports=1000 local ports (40000-40999)")
          .contains("connections: climb ended_by=client_ports side=client open=8000 | each of the 2 source addresses "
              + "used its 1000 local ports (40000-40999) toward each of the 4 server ports: add source addresses or "
              + "server ports");
    } finally {
      HOSTS.exec(peer, "ip", "addr", "del", second + "/24", "dev", peer.iface());
      HOSTS.exec(peer, "sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=" + range);
    }
  }
}
