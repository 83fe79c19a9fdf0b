package io.netpulse.launcher.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.cli.CliRun;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code netpulse connections server|client}, as the README documents it, runs the holder module's commands from
 * netpulse's own jar, and its failures read as they do from netpulse-holder.jar: one line, exit 2.
 */
@Tag("unit")
class NetpulseConnectionsTest {

  @Test
  void helpNamesBothSides() {
    CliRun help = CliRun.of("connections", "--help");
    assertThat(help.exit()).as(help.err()).isZero();
    assertThat(help.out()).startsWith("Usage: netpulse connections [-hV] [COMMAND]")
        .contains("server  Listen on every port").contains("client  Climb: open TCP connections");
  }

  @Test
  void aPortInUseIsOneLineAndExitTwo() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();
      CliRun run = CliRun.of("connections", "server", "--bind", "127.0.0.1", "--ports", String.valueOf(port));
      assertThat(run.exit()).isEqualTo(2);
      assertThat(run.err().strip()).isEqualTo("netpulse: connections server: cannot listen on port " + port
          + " of 127.0.0.1: Address already in use");
    }
  }

  @Test
  void badUsageIsAUsageError() {
    CliRun run = CliRun.of("connections", "client", "--server", "127.0.0.1", "--ports", "2000", "--hold", "10");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("'10' is not a duration such as 70s, 2m or 500ms").doesNotContain("\tat ");
  }
}
