package io.netpulse.launcher.remote;

import static io.netpulse.launcher.remote.RemoteHostsTest.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What a user sees when hosts, keys or remote programs are wrong: one message naming the host and what to do. */
@Tag("root")
class RemoteFaultsTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Duration SHORT = Duration.ofSeconds(3);

  @TempDir Path dir;

  private static HostSpec with(NetHost host, String name, String address, Path identity, Path knownHosts) {
    return new HostSpec(name, address, HOSTS.user(), TestHosts.SSH_PORT, identity, knownHosts, false, null);
  }

  /** An address of the test subnet that no host uses. */
  private static String unused(int lastOctet) {
    String a = HOSTS.sut().address();
    return a.substring(0, a.lastIndexOf('.') + 1) + lastOctet;
  }

  @Test
  void everyUnreachableHostIsNamedInOneFailureAndTheReachableOnesAreClosed() {
    NetHost sut = HOSTS.sut();
    List<HostSpec> specs = List.of(spec(HOSTS, sut),
        with(sut, "ghost-a", unused(77), HOSTS.identity(), HOSTS.knownHosts()),
        with(sut, "ghost-b", unused(78), HOSTS.identity(), HOSTS.knownHosts()));
    assertThatThrownBy(() -> RemoteHosts.connect(specs, SHORT))
        .isInstanceOfSatisfying(RemoteFailure.class, f -> {
          assertThat(f.host()).isEqualTo("ghost-a, ghost-b");
          assertThat(f.getMessage())
              .startsWith("cannot connect to 2 hosts:\n  host ghost-a (root@" + unused(77) + ":22): ")
              .contains("\n  host ghost-b (root@" + unused(78) + ":22): ")
              .contains("check the address")
              .doesNotContain("host sut").doesNotContain("Exception");
        });
  }

  @Test
  void aKeyNotInAuthorizedKeysIsRefusedWithTheFix() throws Exception {
    Path key = dir.resolve("stranger_ed25519");
    Process keygen = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
        .redirectErrorStream(true).start();
    assertThat(keygen.waitFor()).isZero();
    NetHost sut = HOSTS.sut();
    assertThatThrownBy(() -> RemoteHosts.connect(List.of(with(sut, "sut", sut.address(), key, HOSTS.knownHosts())),
        SHORT)).isInstanceOf(RemoteFailure.class)
        .hasMessage("host sut (root@" + sut.address() + ":22): key " + key + " refused for user root: add the public "
            + "key of " + key + " to ~root/.ssh/authorized_keys on the host");
  }

  @Test
  void aChangedHostKeyIsRefused() throws Exception {
    NetHost sut = HOSTS.sut();
    NetHost peer = HOSTS.peer();
    // the peer's key recorded under the sut's address: what a reinstalled (or impersonated) host looks like
    String peerLine = Files.readAllLines(HOSTS.knownHosts()).stream()
        .filter(l -> l.startsWith(peer.address() + " ")).findFirst().orElseThrow();
    Path knownHosts = Files.writeString(dir.resolve("known_hosts"),
        sut.address() + peerLine.substring(peer.address().length()) + "\n");
    assertThatThrownBy(() -> RemoteHosts.connect(
        List.of(with(sut, "sut", sut.address(), HOSTS.identity(), knownHosts)), SHORT))
        .isInstanceOf(RemoteFailure.class)
        .hasMessageStartingWith("host sut (root@" + sut.address() + ":22): host key differs from the one in "
            + knownHosts + "; refusing to connect");
  }

  @Test
  void aServerWhosePortIsTakenFailsAtStartNamingHostAndPort() throws Exception {
    int port = ThreadLocalRandom.current().nextInt(20_000, 30_000);
    try (RemoteHosts hosts = RemoteHosts.connect(List.of(spec(HOSTS, HOSTS.sut())), SHORT)) {
      RemoteHost sut = hosts.host("sut");
      RemoteProcess first = sut.start("netserver-1", RemoteCommand.of("netserver", "-D", "-p", port), null);
      assertThat(first.isAlive()).isTrue();
      assertThatThrownBy(() -> sut.start("netserver-2", RemoteCommand.of("netserver", "-D", "-p", port), null))
          .isInstanceOf(RemoteFailure.class)
          .hasMessageStartingWith("host sut: netserver-2 (netserver) failed at start, exit 1: ")
          .hasMessageContaining("Unable to start netserver")
          .hasMessageEndingWith("; port " + port + " is probably already in use on sut (a leftover server? check "
              + "with: ss -ltnp sport = :" + port + ")");
      assertThat(first.isAlive()).as("the first server is untouched").isTrue();
    }
  }

  @Test
  void aProgramThatIsNotInstalledFailsAtStartWithTheHint() throws Exception {
    try (RemoteHosts hosts = RemoteHosts.connect(List.of(spec(HOSTS, HOSTS.sut())), SHORT)) {
      assertThatThrownBy(() -> hosts.host("sut").start("server", RemoteCommand.of("netpulse-no-such-tool", "-s"),
          null)).isInstanceOf(RemoteFailure.class)
          .hasMessageStartingWith("host sut: server (netpulse-no-such-tool) failed at start, exit 127: ")
          .hasMessageEndingWith("; netpulse-no-such-tool is not installed or not on PATH on sut: check with "
              + "preflight or run with --install-tools");
    }
  }
}
