package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ssh-agent and an OpenSSH client config against the TestHosts' real sshds: a plan host with no key file logs
 * in with the agent's key, and a Host alias whose ProxyJump names another alias reaches the SUT through the bastion,
 * host keys checked on both hops.
 */
@Tag("root")
class SshAgentAndConfigTest {

  @RegisterExtension static final TestHosts HOSTS = TestHosts.behindBastion();
  private static final Duration CONNECT = Duration.ofSeconds(5);

  @TempDir Path dir;
  private Process agent;
  private Path socket;
  private String home;

  @BeforeEach
  void startAgent() throws Exception {
    socket = dir.resolve("agent.sock");
    // -D: in the foreground, so that this test owns its PID and ends it
    agent = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("agent.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Files.exists(socket) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(socket).as("ssh-agent's socket").exists();
    // no default key file (~/.ssh/id_*) and no ~/.ssh/config of the machine may take part
    home = System.getProperty("user.home");
    System.setProperty("user.home", dir.toString());
  }

  @AfterEach
  void stopAgent() throws Exception {
    System.setProperty("user.home", home);
    agent.destroy();
    assertThat(agent.waitFor(10, TimeUnit.SECONDS)).isTrue();
  }

  private int sshAdd(String... args) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of("ssh-add")));
    pb.command().addAll(List.of(args));
    pb.environment().put("SSH_AUTH_SOCK", socket.toString());
    Process p = pb.redirectErrorStream(true).start();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    return p.waitFor();
  }

  private Plan plan(String hosts) throws Exception {
    return PlanLoader.parse("plan.yaml", dir, "name: t\nhosts:\n" + hosts
        + "tests:\n  - { type: rx_bandwidth, streams: 1, duration: 2s }\n");
  }

  @Test
  void theAgentsKeyLogsInWhenThePlanGivesNoKeyFile() throws Exception {
    String bastion = HOSTS.sshAddress(HOSTS.bastion());
    Files.writeString(dir.resolve("ssh_config"), "Host jump\n  HostName " + bastion + "\n  IdentityAgent " + socket
        + "\n");
    Plan p = plan("""
          sut:  { address: jump, ssh_config: ssh_config, known_hosts: %s }
          peer: { address: jump, ssh_config: none, known_hosts: %s }
        """.formatted(HOSTS.knownHosts(), HOSTS.knownHosts()));
    HostSpec viaConfig = p.host("sut");
    assertThat(viaConfig.identity()).isNull();
    assertThat(viaConfig.agent()).isEqualTo(socket);
    assertThat(viaConfig.address()).isEqualTo(bastion);

    // the agent holds no key yet: refused, and the message says why (without any key in it)
    assertThatThrownBy(() -> RemoteHosts.connect(List.of(viaConfig), CONNECT)).isInstanceOf(RemoteFailure.class)
        .hasMessageContaining("ssh-agent at " + socket + " holds no keys: ssh-add one");

    assertThat(sshAdd(HOSTS.identity().toString())).isZero();
    try (RemoteHosts hosts = RemoteHosts.connect(List.of(viaConfig), CONNECT)) {
      CommandResult r = hosts.host("sut").exec(RemoteCommand.of("ip", "-o", "-4", "addr", "show"), CONNECT);
      assertThat(r.stdout()).contains(bastion);
    }
    // ssh_config: none reads no IdentityAgent: SSH_AUTH_SOCK of this JVM (unset here) or no agent at all
    assertThat(p.host("peer").agent()).isEqualTo(io.netpulse.collector.SshAgent.fromEnvironment());
  }

  @Test
  void aHostAliasReachesTheSutThroughTheBastionAliasWithHostKeysCheckedAtEachHop() throws Exception {
    String sut = HOSTS.sshAddress(HOSTS.sut());
    String bastion = HOSTS.sshAddress(HOSTS.bastion());
    Files.writeString(dir.resolve("ssh_config"), String.join("\n",
        "Host jump",
        "  HostName " + bastion,
        "  User " + HOSTS.user(),
        "  IdentityFile " + HOSTS.identity(),
        "Host cloud-*",
        "  ProxyJump jump",
        "  IdentityAgent none",
        "Host cloud-sut",
        "  HostName " + sut,
        "  User " + HOSTS.user(),
        "  Port 22",
        "  IdentityFile " + HOSTS.identity(),
        ""));
    Path knownHosts = HOSTS.knownHosts();
    Plan p = plan("""
          sut:  { address: cloud-sut, ssh_config: ssh_config, known_hosts: %s, test_address: %s }
          peer: { address: cloud-sut, ssh_config: ssh_config, known_hosts: %s }
        """.formatted(knownHosts, HOSTS.sut().address(), knownHosts));
    HostSpec spec = p.host("sut");
    assertThat(spec.jumpPath()).isEqualTo(HOSTS.user() + "@" + bastion + ":22");
    assertThat(spec.agent()).isNull();
    try (RemoteHosts hosts = RemoteHosts.connect(List.of(spec), CONNECT)) {
      // sut's SSH address is on its link to the bastion, which only the bastion reaches
      CommandResult r = hosts.host("sut").exec(RemoteCommand.of("ip", "-o", "-4", "addr", "show"), CONNECT);
      assertThat(r.stdout()).contains(sut);
    }

    // the bastion's key missing from known_hosts: refused at the first hop, nothing sent further
    Path withoutBastion = dir.resolve("known_hosts");
    Files.write(withoutBastion, Files.readAllLines(knownHosts).stream().filter(l -> !l.startsWith(bastion + " "))
        .toList());
    HostSpec refused = plan("""
          sut:  { address: cloud-sut, ssh_config: ssh_config, known_hosts: known_hosts }
          peer: { address: cloud-sut, ssh_config: ssh_config, known_hosts: known_hosts }
        """).host("sut");
    assertThatThrownBy(() -> RemoteHosts.connect(List.of(refused), CONNECT)).isInstanceOf(RemoteFailure.class)
        .hasMessageContaining("through jump host jump (" + HOSTS.user() + "@" + bastion + ":22): host key not in "
            + withoutBastion);
  }
}
