package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.cli.CliRun;
import io.netpulse.launcher.remote.HolderJar;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's acceptance for concurrent connections at small scale, through {@code netpulse run} on the namespace
 * test hosts: with the client's ephemeral range narrowed to 1,000 ports, an open-ended climb from one source
 * address ends at ~1,000 connections per server port and says "client ports exhausted" (a limit of the client,
 * not of the SUT); from two source addresses it reaches twice that. The figure is the processor's largest
 * {@code ss -s} estab on the SUT; the verdict is read from the run's JSON and from {@code netpulse report}, which
 * has it from the repetitions' DONE events on {@code netpulse.runs}.
 */
@Tag("root")
class ConcurrentConnectionsClimbTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  /** 1,000 ports; start and end of different parity, as the kernel prefers. */
  private static final String NARROW_RANGE = "40000 40999";
  private static final int LOCAL_PORTS = 1000;
  /** 2 listeners × 2 ports each. */
  private static final int SERVER_PORTS = 4;

  @TempDir Path dir;

  @Test
  void oneSourceAddressEndsAtItsPortRangePerServerPortAndTwoDoubleIt() throws Exception {
    NetHost peer = HOSTS.peer();
    String second = peer.address().replaceAll("\\.\\d+$", ".11"); // .1 peer, .2 sut, .254 bridge
    String range = HOSTS.exec(peer, "cat", "/proc/sys/net/ipv4/ip_local_port_range").strip().replaceAll("\\s+", " ");
    HOSTS.exec(peer, "sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=" + NARROW_RANGE);
    HOSTS.exec(peer, "ip", "addr", "add", second + "/24", "dev", peer.iface());
    try {
      climbAndCheck(peer, second);
    } finally {
      HOSTS.exec(peer, "ip", "addr", "del", second + "/24", "dev", peer.iface());
      HOSTS.exec(peer, "sysctl", "-q", "-w", "net.ipv4.ip_local_port_range=" + range);
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  private void climbAndCheck(NetHost peer, String second) throws Exception {
    Path java = javaUnderTest();
    // peer2 is the peer again under another name, connecting from both of its addresses
    String hosts = host("sut", HOSTS.sut().address(), java, "") + host("peer", peer.address(), java, "")
        + host("peer2", peer.address(), java, ", source_addresses: [" + peer.address() + ", " + second + "]");
    Path plan = dir.resolve("climb.yaml");
    Files.writeString(plan, """
        name: climb
        hosts:
        %s
        repetitions: 2
        stop: fixed
        warmup: 3s
        prepare: { nofile: 16384 }
        tests:
          - { type: concurrent_connections, name: one-address, clients: [peer], listeners: 2, ports_per_listener: 2, duration: 5s }
          - { type: concurrent_connections, name: two-addresses, clients: [peer2], listeners: 2, ports_per_listener: 2, duration: 5s }
        """.formatted(hosts.stripTrailing()));
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan);
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertTheSmallJarRan();
    Map<String, JsonNode> byTest = new HashMap<>();
    Json.mapper().readTree(run.stdout()).forEach(r -> byTest.put(r.path("test").asText(), r));

    JsonNode one = byTest.get("one-address");
    JsonNode two = byTest.get("two-addresses");
    assertThat(one).as(run.stdout()).isNotNull();
    assertThat(two).as(run.stdout()).isNotNull();
    List<Double> oneRuns = runs(one);
    List<Double> twoRuns = runs(two);
    System.out.printf("tcp_estab on the SUT: one source address %s, two %s%n", oneRuns, twoRuns);
    // ~1,000 per server port: the SUT's estab also counts the launcher's SSH connection(s) to it
    int expected = LOCAL_PORTS * SERVER_PORTS;
    assertThat(oneRuns).hasSize(2).allSatisfy(v -> assertThat(v).isBetween(0.98 * expected, expected + 20.0));
    assertThat(twoRuns).hasSize(2).allSatisfy(v -> assertThat(v).isBetween(2 * 0.98 * expected, 2 * expected + 20.0));
    assertThat(two.path("mean").asDouble() / one.path("mean").asDouble()).isBetween(1.95, 2.05);

    for (JsonNode rep : one.path("repetitions")) {
      JsonNode climb = rep.path("climb");
      assertThat(climb.path("endedBy").asText()).as(rep.toString()).isEqualTo("client_ports");
      assertThat(climb.path("side").asText()).isEqualTo("client");
      assertThat(open(climb, "peer: client ports exhausted at (\\d+): the kernel's source address used its 1000 "
          + "local ports \\(40000-40999\\) toward each of the 4 server ports: add source addresses or server ports"))
          .isBetween((long) (0.98 * expected), (long) expected);
    }
    for (JsonNode rep : two.path("repetitions")) {
      JsonNode climb = rep.path("climb");
      assertThat(climb.path("endedBy").asText()).as(rep.toString()).isEqualTo("client_ports");
      assertThat(open(climb, "peer2: client ports exhausted at (\\d+): each of the 2 source addresses used its 1000 "
          + "local ports \\(40000-40999\\) toward each of the 4 server ports: add source addresses or server ports"))
          .isBetween((long) (2 * 0.98 * expected), 2L * expected);
    }

    // the same verdict, as netpulse report reads it back from the run events
    CliRun md = CliRun.of("report", plan.toString(), "--format", "md", "--data-dir=" + dir.resolve("data"));
    assertThat(md.exit()).as(md.err()).isZero();
    assertThat(md.out().lines().filter(l -> l.contains("DONE; climb ended by client ports exhausted (the client's "
        + "limit, not the SUT's)")).count()).as(md.out()).isEqualTo(4);
  }

  private static String host(String name, String address, Path java, String more) {
    return "  " + name + ": { address: " + address + ", user: " + HOSTS.user() + ", identity: " + HOSTS.identity()
        + ", known_hosts: " + HOSTS.knownHosts() + ", java: " + java + more + " }\n";
  }

  /**
   * The hosts' java (a plan's {@code java:}): the JDK's, through a script that notes where it ran and with what, so
   * that the test can tell which jar the hosts started.
   */
  private Path javaUnderTest() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path script = dir.resolve("java-under-test");
    Files.writeString(script, "#!/bin/sh\necho \"$PWD $*\" >> " + dir.resolve("java.log") + "\nexec " + java
        + " \"$@\"\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  /**
   * Every server and client was {@code java -jar .netpulse/netpulse-holder.jar} in the login directory, the jar
   * there is the holder's as built (the test hosts share this machine's home directory) and under 1 MiB.
   */
  private void assertTheSmallJarRan() throws Exception {
    // (the preflight may also ask it for its version)
    List<String> started = Files.readAllLines(dir.resolve("java.log")).stream().filter(l -> l.contains(" -jar "))
        .toList();
    assertThat(started).as("java -jar started on the hosts").hasSize(2 * 2 * 2) // 2 tests × 2 repetitions × server+client
        .allMatch(l -> l.matches("\\S+ -jar \\.netpulse/netpulse-holder\\.jar (server|client) .*"));
    Path shipped = Path.of(started.get(0).split(" ")[0], ".netpulse", "netpulse-holder.jar");
    System.out.printf("shipped %s: %d bytes%n", shipped, Files.size(shipped));
    assertThat(Files.size(shipped)).isLessThanOrEqualTo(1024 * 1024);
    assertThat(Files.readAllBytes(shipped)).isEqualTo(Files.readAllBytes(HolderJar.locate(null)));
  }

  private static List<Double> runs(JsonNode result) {
    assertThat(result.path("metric").asText()).isEqualTo("tcp_estab");
    List<Double> values = new ArrayList<>();
    result.path("runs").forEach(v -> values.add(v.asDouble()));
    return values;
  }

  private static long open(JsonNode climb, String detail) {
    Matcher m = Pattern.compile(detail).matcher(climb.path("detail").asText());
    assertThat(m.matches()).as(climb.toString()).isTrue();
    return Long.parseLong(m.group(1));
  }
}
