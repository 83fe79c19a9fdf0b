package io.netpulse.launcher.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.procedure.DryRun;
import io.netpulse.launcher.procedure.SutFacts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan host's {@code address} as an OpenSSH {@code Host} alias: which values come from ~/.ssh/config (the file of
 * {@code ssh_config}), which from the plan (the plan's, where it gives one), and errors naming the config line.
 */
@Tag("unit")
class SshConfigPlanTest {

  @TempDir Path dir;

  private Path keys(String name) throws Exception {
    return Files.writeString(dir.resolve(name), "not a key: only its path is read here");
  }

  private Plan load(String hosts) throws PlanException {
    return PlanLoader.parse("plan.yaml", dir, "name: t\nhosts:\n" + hosts
        + "tests:\n  - { type: rx_bandwidth, streams: 1, duration: 2s }\n");
  }

  private List<String> errorsOf(String hosts) {
    try {
      load(hosts);
    } catch (PlanException e) {
      return e.errors().stream().map(PlanError::describe).toList();
    }
    throw new AssertionError("plan loaded without errors");
  }

  private void config(String text) throws Exception {
    Files.writeString(dir.resolve("ssh_config"), text.replace("DIR", dir.toString()));
  }

  @Test
  void theConfigFillsWhatThePlanLeavesOutAndThePlanWinsWhereItSpeaks() throws Exception {
    Path webKey = keys("web_key");
    Path planKey = keys("plan_key");
    config("""
        Host web
          HostName 203.0.113.10
          User ubuntu
          Port 2222
          IdentityFile DIR/web_key
          ProxyJump bastion
        Host bastion
          HostName 203.0.113.7
          User ops
          IdentityFile DIR/bastion_key
        """);
    keys("bastion_key");
    Plan p = load("""
          sut:  { address: web, ssh_config: ssh_config, test_address: 10.0.0.2 }
          peer: { address: web, ssh_config: ssh_config, user: root, port: 22, identity: plan_key, proxy_jump: [] }
        """.replace("proxy_jump: []", "known_hosts: kh"));
    HostSpec sut = p.host("sut");
    assertThat(sut.address()).isEqualTo("203.0.113.10");
    assertThat(sut.user()).isEqualTo("ubuntu");
    assertThat(sut.port()).isEqualTo(2222);
    assertThat(sut.identity()).isEqualTo(webKey);
    assertThat(sut.testAddress()).isEqualTo("10.0.0.2");
    // the bastion alias resolves through the same file: its HostName, User and IdentityFile
    assertThat(sut.jumpPath()).isEqualTo("ops@203.0.113.7:22");
    assertThat(sut.proxyJump().get(0).identity()).isEqualTo(dir.resolve("bastion_key"));
    assertThat(sut.proxyJump().get(0).knownHosts()).isEqualTo(sut.knownHosts());

    HostSpec peer = p.host("peer");
    assertThat(peer.address()).as("HostName still applies").isEqualTo("203.0.113.10");
    assertThat(peer.testAddress()).as("test traffic goes to the HostName, not to the alias").isEqualTo("203.0.113.10");
    assertThat(peer.user()).isEqualTo("root");
    assertThat(peer.port()).isEqualTo(22);
    assertThat(peer.identity()).isEqualTo(planKey);
    assertThat(peer.proxyJump()).isNotEmpty(); // no proxy_jump in the plan: the config's ProxyJump
    assertThat(peer.fromSshConfig()).isEqualTo("'web': HostName, ProxyJump from " + dir.resolve("ssh_config")
        + " lines 2, 6");

    StringWriter out = new StringWriter();
    new DryRun(p, new SutFacts("eth0", 1)).printText(new PrintWriter(out));
    assertThat(out.toString()).contains("host sut      ubuntu@203.0.113.10 port 2222 via ops@203.0.113.7:22, test "
        + "address 10.0.0.2; ssh config 'web': HostName, User, Port, IdentityFile, ProxyJump from "
        + dir.resolve("ssh_config") + " lines 2, 3, 4, 5, 6");
  }

  @Test
  void aPlanProxyJumpReplacesTheConfigsAndNoneReadsNoFile() throws Exception {
    config("Host web\n  HostName 203.0.113.10\n  ProxyJump ops@203.0.113.7\n");
    Plan p = load("""
          sut:  { address: web, ssh_config: ssh_config, proxy_jump: "admin@198.51.100.1:2200" }
          peer: { address: web, ssh_config: none }
        """);
    assertThat(p.host("sut").jumpPath()).isEqualTo("admin@198.51.100.1:2200");
    assertThat(p.host("peer").address()).isEqualTo("web");
    assertThat(p.host("peer").proxyJump()).isEmpty();
    assertThat(p.host("peer").fromSshConfig()).isEmpty();
  }

  @Test
  void configProblemsNameTheConfigFileAndLine() throws Exception {
    config("Host web\n  Port 0\nHost db\n  IdentityFile DIR/missing_key\nHost app\n  ProxyJump app2\nHost app2\n"
        + "  ProxyJump app\nHost bad\n  HostName \"10.0.0.1; reboot\"\n");
    Path cfg = dir.resolve("ssh_config");
    assertThat(errorsOf("""
          sut:  { address: web, ssh_config: ssh_config }
          peer: { address: db, ssh_config: ssh_config }
          a:    { address: app, ssh_config: ssh_config }
          b:    { address: 10.0.0.9, ssh_config: nothing_here }
          c:    { address: bad, ssh_config: ssh_config }
          d:    { address: db, ssh_config: ssh_config, identity: key_of_d }
        """)).containsExactly(
        "plan.yaml:3:37: host 'sut' address web: ssh config " + cfg + " line 2: Port '0' is not a number from 1 to "
            + "65535",
        "plan.yaml:4:36: host 'peer' address db: ssh config " + cfg + " line 4 (Host db): IdentityFile "
            + dir.resolve("missing_key") + " is not a readable file",
        "plan.yaml:5:37: host 'a' ProxyJump (" + cfg + " line 6): ssh config " + cfg + " line 8: ProxyJump of app2 "
            + "leads back to it (app2 -> app -> app2)",
        "plan.yaml:6:42: host 'b' ssh_config: ssh config " + dir.resolve("nothing_here") + " cannot be read: no such "
            + "file (give another file with ssh_config: PATH, or ssh_config: none not to read one)",
        "plan.yaml:7:37: host 'c' address bad: HostName '10.0.0.1; reboot' of " + cfg + " line 10: "
            + "'10.0.0.1; reboot' is neither an IP literal nor a host name (letters, digits, '-' and '.' only)");
  }
}
