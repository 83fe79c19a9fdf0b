package io.netpulse.collector;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.Sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.event.LineEvent;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Remote samplers over jsch exec channels to a real OpenSSH server in a test host. */
@Tag("root")
class SshLineSourceTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Pattern PID = Pattern.compile("pid=(\\d+)");

  @TempDir Path dir;

  private SshTarget target(NetHost host, Path knownHosts, SshTarget.HostKeyPolicy policy) {
    return new SshTarget(host.name(), host.address(), TestHosts.SSH_PORT, HOSTS.user(), HOSTS.identity(), knownHosts,
        policy, Duration.ofSeconds(5));
  }

  @Test
  void connectionCutMidStreamReconnectsContinuesTheSequenceAndReportsTheGap() {
    NetHost sut = HOSTS.sut();
    CollectorMetrics metrics = new CollectorMetrics();
    RecordingSink sink = new RecordingSink();
    try (SshConnection connection = new SshConnection(target(sut, HOSTS.knownHosts(), SshTarget.HostKeyPolicy.STRICT));
        SshLineSource sar = new SshLineSource(connection, Sources.SAR_DEV, null, Sampler.SAR_DEV.shellCommand(), sink,
            metrics, Duration.ofSeconds(2)).start()) {
      await().atMost(Duration.ofSeconds(15)).until(() -> sink.of("sut", Sources.SAR_DEV).size() >= 8);
      long sshdPid = listeningSshd(sut);
      List<ProcessHandle> sessions = ProcessHandle.of(sshdPid).orElseThrow().children().toList();
      assertThat(sessions).as("sshd processes serving our connection").isNotEmpty();

      long linesAtCut = sar.linesRead();
      sessions.forEach(ProcessHandle::destroyForcibly); // only children of this host's sshd

      await().atMost(Duration.ofSeconds(30)).until(() -> sar.linesRead() >= linesAtCut + 10);
      SourceStats stats = metrics.stats("sut", Sources.SAR_DEV);
      assertThat(stats.gaps()).as("reported gaps").isEqualTo(1);
      assertThat(stats.gapMillis()).as("gap length").isBetween(100L, 20_000L);
      assertThat(ProcessHandle.of(sshdPid).orElseThrow().children().map(ProcessHandle::pid).toList())
          .as("a new sshd session process after reconnecting").doesNotContainAnyElementsOf(
              sessions.stream().map(ProcessHandle::pid).toList());
      List<LineEvent> lines = sink.of("sut", Sources.SAR_DEV);
      assertThat(lines.stream().map(LineEvent::seq).toList())
          .containsExactlyElementsOf(LongStream.range(0, lines.size()).boxed().toList());
      // sar started again: its banner (Linux ... ) shows up twice, once per connection
      List<LineEvent> banners = lines.stream().filter(l -> l.line().startsWith("Linux ")).toList();
      assertThat(banners).hasSize(2);
      // the first line after the cut states the gap, as counted; no other line states one
      assertThat(lines).filteredOn(l -> l.gapMs() != null).containsExactly(banners.get(1));
      assertThat(banners.get(1).gapMs()).isEqualTo(stats.gapMillis());
      assertThat(lines).allMatch(l -> l.epoch() == null); // numbered in memory: no collector start to name
      assertThat(lines).anyMatch(l -> l.line().contains(sut.iface()));
    }
  }

  @Test
  void unknownHostIsRefusedByDefaultAndAddedOnlyWithAcceptNew() throws Exception {
    NetHost peer = HOSTS.peer();
    Path empty = Files.createFile(dir.resolve("known_hosts"));
    try (SshConnection strict = new SshConnection(target(peer, empty, SshTarget.HostKeyPolicy.STRICT))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(strict::session)
          .hasMessageContaining("host key not in").hasMessageContaining(peer.address());
    }
    try (SshConnection acceptNew = new SshConnection(target(peer, empty, SshTarget.HostKeyPolicy.ACCEPT_NEW))) {
      assertThat(acceptNew.run("true")).isZero();
    }
    assertThat(Files.readString(empty)).contains(peer.address()).contains("ssh-ed25519");
    try (SshConnection strictAgain = new SshConnection(target(peer, empty, SshTarget.HostKeyPolicy.STRICT))) {
      assertThat(strictAgain.run("exit 3")).isEqualTo(3);
    }
    // a known host presenting another key (sut's key recorded under peer's address) is refused even with accept-new
    Path wrong = dir.resolve("wrong_known_hosts");
    String sutKey = Files.readAllLines(HOSTS.knownHosts()).stream()
        .filter(l -> l.startsWith(HOSTS.sut().address() + " ")).findFirst().orElseThrow();
    Files.writeString(wrong, peer.address() + sutKey.substring(HOSTS.sut().address().length()) + "\n");
    try (SshConnection changed = new SshConnection(target(peer, wrong, SshTarget.HostKeyPolicy.ACCEPT_NEW))) {
      org.assertj.core.api.Assertions.assertThatThrownBy(changed::session).hasMessageContaining("host key differs");
    }
  }

  private static long listeningSshd(NetHost host) {
    String ss = HOSTS.exec(host, "ss", "-Htlnp", "sport = :" + TestHosts.SSH_PORT);
    Matcher m = PID.matcher(ss);
    assertThat(m.find()).as("sshd listening in " + host.name() + ": " + ss).isTrue();
    return Long.parseLong(m.group(1));
  }
}
