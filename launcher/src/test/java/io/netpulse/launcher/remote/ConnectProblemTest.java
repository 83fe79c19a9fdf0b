package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.jcraft.jsch.JSchException;
import io.netpulse.collector.SshTarget;
import java.net.NoRouteToHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one line a user reads when a host cannot be reached: what happened and what to check, no Java names. */
@Tag("unit")
class ConnectProblemTest {

  private static final SshTarget GHOST = new SshTarget("ghost-a", "198.18.34.77", 22, "root", Path.of("/k"), null,
      SshTarget.HostKeyPolicy.STRICT, Duration.ofSeconds(3), List.of(), null);

  @Test
  void aSocketFailureJschWrapsAsItsToStringReadsWithoutTheExceptionsClassName() {
    // jsch's Session.connect: throw new JSchException(e.toString(), e) for the socket's failure
    NoRouteToHostException route = new NoRouteToHostException("No route to host");
    String line = RemoteHosts.connectProblem(GHOST, new JSchException(route.toString(), route));
    assertThat(line).isEqualTo("host ghost-a (root@198.18.34.77:22): No route to host; the address is not reachable "
        + "from here: check routing and the address");
  }

  @Test
  void jschsOwnTimeoutKeepsItsWordsAndGetsItsHint() {
    String line = RemoteHosts.connectProblem(GHOST, new JSchException("timeout: socket is not established"));
    assertThat(line).isEqualTo("host ghost-a (root@198.18.34.77:22): timeout: socket is not established; no answer "
        + "within 3000 ms: check the address, port 22, firewalls and that the host is up");
  }
}
