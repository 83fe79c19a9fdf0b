package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.jcraft.jsch.ChannelExec;
import io.netpulse.collector.SshConnection;
import io.netpulse.collector.SshTarget;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against an sshd with OpenSSH's default MaxSessions (10 channels per connection), as on a stock host: many
 * processes on one host must spread over several connections. A second sshd runs in the sut on port 2222.
 */
@Tag("root")
class StockSshdTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final int PORT = 2222;

  @TempDir Path dir;

  @Test
  void twentyProcessesOnAStockSshdUseSeveralConnections() throws Exception {
    NetHost sut = HOSTS.sut();
    Path hostKey = dir.resolve("host_key");
    assertThat(new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey.toString())
        .redirectErrorStream(true).start().waitFor()).isZero();
    Path authorized = Files.copy(Path.of(HOSTS.identity() + ".pub"), dir.resolve("authorized_keys"));
    Path config = Files.writeString(dir.resolve("sshd_config"), String.join("\n",
        "ListenAddress " + sut.address() + ":" + PORT, "HostKey " + hostKey, "AuthorizedKeysFile " + authorized,
        "PidFile none", "PermitRootLogin prohibit-password", "PasswordAuthentication no", "UsePAM no",
        "StrictModes no", "PrintMotd no", "")); // no MaxSessions: OpenSSH's default of 10
    String[] pub = Files.readString(Path.of(hostKey + ".pub")).trim().split("\\s+");
    Path knownHosts = Files.writeString(dir.resolve("known_hosts"),
        "[" + sut.address() + "]:" + PORT + " " + pub[0] + " " + pub[1] + "\n");
    Process sshd = HOSTS.network().start(sut, List.of("/usr/sbin/sshd", "-D", "-e", "-f", config.toString()),
        dir.resolve("sshd.log"));
    try {
      await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress(sut.address(), PORT), 200);
          return true;
        }
      });
      assertThat(channelsOneConnectionTakes(sut, knownHosts)).as("this sshd enforces MaxSessions 10").isEqualTo(10);

      HostSpec spec = new HostSpec("stock", sut.address(), HOSTS.user(), PORT, HOSTS.identity(), knownHosts, false,
          null);
      try (RemoteHosts hosts = RemoteHosts.connect(List.of(spec), Duration.ofSeconds(5))) {
        RemoteHost host = hosts.host("stock");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        Set<RemoteProcess> started = ConcurrentHashMap.newKeySet();
        try {
          List<Future<?>> starts = new ArrayList<>();
          for (int i = 0; i < 20; i++) {
            int n = i;
            starts.add(pool.submit(() -> started.add(host.start("sleep-" + n, RemoteCommand.of("sleep", "1000"),
                null))));
          }
          for (Future<?> f : starts) {
            f.get();
          }
        } finally {
          pool.shutdown();
        }
        assertThat(started).hasSize(20).allMatch(RemoteProcess::isAlive);
        assertThat(started.stream().map(RemoteProcess::pid).collect(Collectors.toSet())).hasSize(20);
        assertThat(host.connections()).isEqualTo(3); // 8 + 8 + 4
        assertThat(host.exec(RemoteCommand.of("echo", "still room"), Duration.ofSeconds(10)).stdout())
            .isEqualTo("still room\n");
        hosts.stopAll(Duration.ofSeconds(2));
        assertThat(started).noneMatch(RemoteProcess::isAlive);
        for (RemoteProcess p : started) {
          await().atMost(Duration.ofSeconds(5)).until(() -> RemoteHostsTest.group(HOSTS, sut, p.pid()).isEmpty());
        }
      }
    } finally {
      HOSTS.network().stop(sshd);
    }
  }

  /** How many exec channels one connection gets open before the server refuses one (up to 12 tried). */
  private static int channelsOneConnectionTakes(NetHost sut, Path knownHosts) throws Exception {
    SshTarget target = new SshTarget("stock", sut.address(), PORT, HOSTS.user(), HOSTS.identity(), knownHosts,
        SshTarget.HostKeyPolicy.STRICT, Duration.ofSeconds(5));
    List<ChannelExec> open = new ArrayList<>();
    try (SshConnection c = new SshConnection(target)) {
      for (int i = 0; i < 12; i++) {
        ChannelExec ch = c.exec("sleep 30", OutputStream.nullOutputStream());
        try {
          ch.connect(5000);
        } catch (com.jcraft.jsch.JSchException refused) {
          assertThatThrownBy(() -> {
            throw refused;
          }).hasMessageContaining("channel is not opened");
          return open.size();
        }
        open.add(ch);
      }
      return open.size();
    } finally {
      open.forEach(ChannelExec::disconnect);
    }
  }
}
