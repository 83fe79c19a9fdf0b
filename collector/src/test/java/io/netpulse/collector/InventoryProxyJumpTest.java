package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.catalog.Sources;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agentless collector's inventory with {@code proxy_jump}: a host whose SSH only the bastion reaches is sampled
 * through it, and after the bastion's session is cut the source reconnects through it again.
 */
@Tag("root")
class InventoryProxyJumpTest {

  @RegisterExtension static final TestHosts HOSTS = TestHosts.behindBastion();
  private static final Pattern PID = Pattern.compile("pid=(\\d+)");

  @TempDir Path dir;

  @Test
  void aHostBehindTheBastionIsSampledThroughItAndAgainAfterACut() throws Exception {
    Path file = inventoryBehindBastion(dir, HOSTS);
    SshTarget target = Inventory.load(file).hosts().get(0).target();
    assertThat(target.jumpPath()).isEqualTo("root@" + HOSTS.sshAddress(HOSTS.bastion()) + ":22");
    assertThat(target.jumps().get(0).knownHosts()).isEqualTo(HOSTS.knownHosts());

    RecordingSink sink = new RecordingSink();
    CollectorMetrics metrics = new CollectorMetrics();
    try (SshConnection connection = new SshConnection(target);
        SshLineSource sar = new SshLineSource(connection, Sources.SAR_DEV, null,
            io.netpulse.tools.Sampler.SAR_DEV.shellCommand(), sink, metrics, Duration.ofSeconds(2)).start()) {
      await().atMost(Duration.ofSeconds(15)).until(() -> sink.of("sut", Sources.SAR_DEV).size() >= 4);
      // sar on the SUT lists its link to the bastion (eth1): the lines come from the host behind it
      assertThat(sink.of("sut", Sources.SAR_DEV).stream().anyMatch(l -> l.line().contains("eth1"))).isTrue();
      long linesAtCut = sar.linesRead();
      // cut the bastion's side: the session behind it goes down with it, and comes back through a new one
      ProcessHandle.of(listeningSshd(HOSTS.bastion())).orElseThrow().children().toList()
          .forEach(ProcessHandle::destroyForcibly);
      await().atMost(Duration.ofSeconds(30)).until(() -> sar.linesRead() >= linesAtCut + 4);
      assertThat(metrics.stats("sut", Sources.SAR_DEV).gaps()).isEqualTo(1);
    }

    Files.writeString(file, Files.readString(file).replace(":22\n", ":99999\n"));
    assertThatThrownBy(() -> Inventory.load(file)).isInstanceOf(InventoryException.class)
        .hasMessageContaining(file + " host #1 (sut): proxy_jump 'root@" + HOSTS.sshAddress(HOSTS.bastion())
            + ":99999': the port is not a number from 1 to 65535");
  }

  /** An inventory of one host, {@code hosts}' SUT, reached through their bastion ({@code proxy_jump}). */
  static Path inventoryBehindBastion(Path dir, TestHosts hosts) throws java.io.IOException {
    return Files.writeString(dir.resolve("fleet.yaml"), String.join("\n",
        "defaults:",
        "  user: " + hosts.user(),
        "  identity: " + hosts.identity(),
        "  known_hosts: " + hosts.knownHosts(),
        "  connect_timeout: 5s",
        "hosts:",
        "  - name: sut",
        "    address: " + hosts.sshAddress(hosts.sut()),
        "    proxy_jump: root@" + hosts.sshAddress(hosts.bastion()) + ":22",
        ""));
  }

  private static long listeningSshd(NetHost host) {
    String ss = HOSTS.exec(host, "ss", "-Htlnp", "sport = :" + TestHosts.SSH_PORT);
    Matcher m = PID.matcher(ss);
    assertThat(m.find()).as("sshd listening in " + host.name() + ": " + ss).isTrue();
    return Long.parseLong(m.group(1));
  }
}
