package io.netpulse.launcher.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.procedure.DryRun;
import io.netpulse.launcher.procedure.SutFacts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Hosts' {@code test_address} and {@code proxy_jump}: what the loader makes of them, and what it refuses where. */
@Tag("unit")
class ProxyJumpPlanTest {

  private static Plan load(String yaml) throws PlanException {
    return PlanLoader.parse("plan.yaml", Path.of("/plans"), yaml);
  }

  private static List<String> errorsOf(String yaml) {
    try {
      load(yaml);
    } catch (PlanException e) {
      return e.errors().stream().map(PlanError::describe).toList();
    }
    throw new AssertionError("plan loaded without errors:\n" + yaml);
  }

  private static String plan(String hosts) {
    return "name: t\nhosts:\n" + hosts + "tests:\n  - { type: rx_bandwidth, streams: 1, duration: 2s }\n";
  }

  @Test
  void testAddressDefaultsToTheSshAddressAndCarriesTheTraffic() throws Exception {
    Plan p = load(plan("""
          sut:  { address: 203.0.113.10, test_address: 10.0.0.2 }
          peer: { address: 203.0.113.11 }
        """));
    assertThat(p.host("sut").testAddress()).isEqualTo("10.0.0.2");
    assertThat(p.host("sut").address()).isEqualTo("203.0.113.10");
    assertThat(p.host("peer").testAddress()).isEqualTo("203.0.113.11");
    assertThat(p.host("peer").proxyJump()).isEmpty();
    // netperf on the peer sends to the SUT's test address, never to its SSH address
    String dry = dryRun(p);
    assertThat(dry).contains("-H 10.0.0.2").doesNotContain("-H 203.0.113.10");
    assertThat(dry).contains("host sut      root@203.0.113.10 port 22, test address 10.0.0.2");
  }

  @Test
  void aHostEntryAsBastionBringsItsOwnLoginAndItsOwnBastionsFirst() throws Exception {
    Plan p = load(plan("""
          sut:   { address: 10.0.1.2, test_address: 10.0.0.2, proxy_jump: inner, identity: keys/sut }
          peer:  { address: 10.0.1.1, proxy_jump: "ops@203.0.113.5:2222, inner" }
          inner: { address: 10.0.9.9, user: jump, port: 2200, identity: keys/inner, known_hosts: kh/inner,
                   host_key_policy: accept-new, proxy_jump: [outer] }
          outer: { address: 203.0.113.7, user: ec2-user }
        """));
    List<HostSpec> sutPath = p.host("sut").proxyJump();
    assertThat(sutPath).extracting(HostSpec::name).containsExactly("outer", "inner");
    HostSpec inner = sutPath.get(1);
    assertThat(inner.user()).isEqualTo("jump");
    assertThat(inner.port()).isEqualTo(2200);
    assertThat(inner.identity()).isEqualTo(Path.of("/plans/keys/inner"));
    assertThat(inner.knownHosts()).isEqualTo(Path.of("/plans/kh/inner"));
    assertThat(inner.acceptNewHostKeys()).isTrue();
    assertThat(inner.proxyJump()).isEmpty(); // flattened: the path is the list
    assertThat(p.host("sut").jumpPath()).isEqualTo("ec2-user@203.0.113.7:22,jump@10.0.9.9:2200");
    // a bastion outside the plan logs in as the host would (its identity, known_hosts), unless it names a user
    List<HostSpec> peerPath = p.host("peer").proxyJump();
    assertThat(peerPath).extracting(HostSpec::sshSpec)
        .containsExactly("ops@203.0.113.5:2222", "ec2-user@203.0.113.7:22", "jump@10.0.9.9:2200");
    assertThat(peerPath.get(0).knownHosts()).isEqualTo(p.host("peer").knownHosts());
    assertThat(peerPath.get(0).acceptNewHostKeys()).isFalse();
    assertThat(dryRun(p)).contains("host sut      root@10.0.1.2 port 22 via ec2-user@203.0.113.7:22,jump@10.0.9.9:2200,"
        + " test address 10.0.0.2");
  }

  @Test
  void outsideBastionsTakeTheHostsUserAndIpv6InBrackets() throws Exception {
    Plan p = load(plan("""
          sut:  { address: 10.0.1.2, user: bench, proxy_jump: ["bastion.example.net", "[2001:db8::1]:2022"] }
          peer: { address: 10.0.1.1 }
        """));
    assertThat(p.host("sut").proxyJump()).extracting(HostSpec::sshSpec)
        .containsExactly("bench@bastion.example.net:22", "bench@[2001:db8::1]:2022");
  }

  @Test
  void badSpecsAndUnknownNamesAreReportedWhereTheyAre() {
    assertThat(errorsOf(plan("""
          sut:  { address: 10.0.1.2, proxy_jump: bastoin, test_address: "10.0.0.2; reboot" }
          peer: { address: 10.0.1.1, proxy_jump: ["root@bad_host!", "x@203.0.113.5:99999", "$(id)@203.0.113.5"] }
          bastion: { address: 203.0.113.7, proxy_jump: "peer," }
        """))).containsExactly(
        "plan.yaml:3:42: host 'sut' proxy_jump: 'bastoin' is not a host of the plan, did you mean 'bastion'? expected "
            + "the name of another host of the plan or user@host[:port], e.g. bastion or ubuntu@203.0.113.7:22",
        "plan.yaml:3:65: host 'sut' test_address: '10.0.0.2; reboot' is neither an IP literal nor a host name "
            + "(letters, digits, '-' and '.' only), expected an IP literal or a host name",
        "plan.yaml:4:43: host 'peer' proxy_jump: 'root@bad_host!': 'bad_host!' is neither an IP literal nor a host "
            + "name (letters, digits, '-' and '.' only), expected the name of another host of the plan or "
            + "user@host[:port], e.g. bastion or ubuntu@203.0.113.7:22",
        "plan.yaml:4:61: host 'peer' proxy_jump: the port of 'x@203.0.113.5:99999' is not a number from 1 to 65535, "
            + "expected the name of another host of the plan or user@host[:port], e.g. bastion or "
            + "ubuntu@203.0.113.7:22",
        "plan.yaml:4:84: host 'peer' proxy_jump: the user of '$(id)@203.0.113.5' "
            + ArgumentCheck.userProblem("$(id)") + ", expected the name of another host of the plan or "
            + "user@host[:port], e.g. bastion or ubuntu@203.0.113.7:22",
        "plan.yaml:5:48: host 'bastion' proxy_jump has an empty entry in 'peer,', expected the name of another host "
            + "of the plan or user@host[:port], e.g. bastion or ubuntu@203.0.113.7:22");
  }

  @Test
  void bastionsThatGoThroughEachOtherAreALoop() {
    assertThat(errorsOf(plan("""
          sut:  { address: 10.0.1.2, proxy_jump: a }
          peer: { address: 10.0.1.1, proxy_jump: peer }
          a:    { address: 203.0.113.7, proxy_jump: b }
          b:    { address: 203.0.113.8, proxy_jump: a }
        """))).containsExactly(
        "plan.yaml:4:42: host 'peer' proxy_jump names the host itself, expected the name of another host of the plan "
            + "or user@host[:port], e.g. bastion or ubuntu@203.0.113.7:22",
        "plan.yaml:6:45: host 'b' proxy_jump: 'a' leads back here (a -> b -> a), expected bastions that do not "
            + "go through each other");
  }

  private static String dryRun(Plan p) {
    StringWriter out = new StringWriter();
    new DryRun(p, new SutFacts("eth0", 1)).printText(new PrintWriter(out));
    return out.toString();
  }
}
