package io.netpulse.testbed.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LocalResourcesTest {

  @Test
  void aFreePortIsBelowTheEphemeralRangeAndCanBeBound() throws Exception {
    int low = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
        .split("\\s+")[0]);
    assertThat(LocalResources.ephemeralLow()).isEqualTo(low).isGreaterThan(1024);
    for (int i = 0; i < 20; i++) {
      int port = LocalResources.freePort();
      // no outgoing connection can hold it as its local port, so a server restarted on it binds again
      assertThat(port).isBetween(10_000, low - 1);
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
        assertThat(s.getLocalPort()).isEqualTo(port);
        assertThat(LocalResources.isFree(port)).isFalse();
      }
    }
  }

  /**
   * Ports chosen before their servers bind them are never the same twice (a broker's client and controller ports are
   * chosen one after the other, then bound): 2,000 choices among the ~22,000 quiet ports would repeat one almost surely
   * if each were only checked free.
   */
  @Test
  void portsChosenBeforeAnyIsBoundAreAllDifferent() {
    java.util.Set<Integer> chosen = new java.util.HashSet<>();
    for (int i = 0; i < 2_000; i++) {
      assertThat(chosen.add(LocalResources.freePort())).as("choice %d", i).isTrue();
    }
  }

  @Test
  void aTakenPortIsRefusedNamingTheOption() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertThatThrownBy(() -> LocalResources.requireFreePort(taken.getLocalPort(), "--kafka-port"))
          .isInstanceOf(EmbeddedStartException.class)
          .hasMessage("port " + taken.getLocalPort() + " on 127.0.0.1 is already in use; choose another with --kafka-port");
    }
  }
}
