package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ssh_config(5) as OpenSSH reads it: which block applies, which value wins, and errors naming file and line. */
@Tag("unit")
class SshConfigTest {

  @TempDir Path dir;

  private SshConfig config(String text) throws Exception {
    return SshConfig.read(Files.writeString(dir.resolve("config"), text), false);
  }

  @Test
  void firstValueWinsInFileOrderAndEveryMatchingBlockCounts() throws Exception {
    Path key = Files.writeString(dir.resolve("web_key"), "k");
    Files.writeString(dir.resolve("other_key"), "k");
    SshConfig c = config("""
        # global lines apply to every host, and come first
        User deploy

        Host web1 web2
          HostName=203.0.113.10
          port 2222
          IdentityFile %d/web_key
          IdentityFile %d/other_key
          ProxyJump ops@bastion:2200,inner
        Host *
          User nobody
          Port 22
          IdentityAgent none
        """.replace("%d", dir.toString()));
    SshHostConfig web = c.lookup("web2");
    assertThat(web.hostName()).isEqualTo("203.0.113.10");
    assertThat(web.address()).isEqualTo("203.0.113.10");
    assertThat(web.user()).isEqualTo("deploy"); // the global line was read first
    assertThat(web.port()).isEqualTo(2222); // before Host *'s Port 22
    assertThat(web.identity()).isEqualTo(key); // the first IdentityFile
    assertThat(web.proxyJump()).containsExactly("ops@bastion:2200", "inner");
    assertThat(web.identityAgent()).isEqualTo("none");
    assertThat(web.origins()).containsEntry("Port", dir.resolve("config") + " line 6");
    assertThat(web.describe(List.of("HostName", "Port"))).isEqualTo("HostName, Port from " + dir.resolve("config")
        + " lines 5, 6");

    SshHostConfig other = c.lookup("db1");
    assertThat(other.hostName()).isNull();
    assertThat(other.address()).isEqualTo("db1");
    assertThat(other.port()).isEqualTo(22);
    assertThat(c.knows("web1")).isTrue();
    assertThat(c.knows("db1")).as("only Host * matches it").isFalse();
  }

  @Test
  void negatedPatternsWildcardsMatchAndIncludeAsOpenSsh() throws Exception {
    Files.writeString(dir.resolve("extra.conf"), "Host db?\n  User dba\n");
    SshConfig c = config("""
        Include %d/*.conf
        Host *.internal !secret.internal
          User ops
        Host !nothing
          Port 2022
        Match exec "true"
          User never
        Host %h-alias
          HostName %h.example.net
        """.replace("%d", dir.toString()).replace("%h-alias", "app"));
    assertThat(c.lookup("a.internal").user()).isEqualTo("ops");
    assertThat(c.lookup("secret.internal").user()).as("a matching negated pattern rules the block out").isNull();
    assertThat(c.lookup("a.internal").port()).as("a block of negated patterns only never applies").isNull();
    assertThat(c.lookup("db1").user()).isEqualTo("dba");
    assertThat(c.lookup("x").user()).as("Match blocks other than Match all are skipped").isNull();
    assertThat(c.lookup("app").hostName()).isEqualTo("app.example.net");
    assertThat(c.lookup("APP").hostName()).as("host patterns match case-insensitively").isEqualTo("APP.example.net");
  }

  @Test
  void aBastionAliasBringsItsOwnProxyJumpFirstAndALoopIsRefused() throws Exception {
    SshConfig c = config("""
        Host inner
          HostName 10.0.9.9
          User jump
          ProxyJump outer
        Host outer
          HostName 203.0.113.7
          Port 2200
        Host loop1
          ProxyJump loop2
        Host loop2
          ProxyJump loop1
        """);
    List<SshConfig.Hop> hops = c.hops("admin@inner", "admin", "inner", null);
    assertThat(hops).containsExactly(new SshConfig.Hop("outer", "203.0.113.7", null, 2200, null),
        new SshConfig.Hop("admin@inner", "10.0.9.9", "admin", null, null));
    assertThatThrownBy(() -> c.hops("loop1", null, "loop1", null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(dir.resolve("config") + " line ").hasMessageContaining("loop1 -> loop2 -> loop1");
  }

  @Test
  void badValuesNameTheFileAndLine() throws Exception {
    SshConfig c = config("Host web\n  Port 99999\nHost db\n  IdentityFile /nonexistent/key\nHost x\n  ProxyJump a@@b\n");
    Path file = dir.resolve("config");
    assertThatThrownBy(() -> c.lookup("web")).hasMessage("ssh config " + file + " line 2: Port '99999' is not a "
        + "number from 1 to 65535");
    assertThat(c.lookup("db").identity()).as("checked only where used").isEqualTo(Path.of("/nonexistent/key"));
    assertThatThrownBy(() -> c.lookup("db").readableIdentity()).hasMessage("ssh config " + file + " line 4 (Host db): IdentityFile "
        + "/nonexistent/key is not a readable file");
    assertThatThrownBy(() -> c.hops("x", null, "x", null)).hasMessage("ssh config " + file + " line 6 (Host x): "
        + "ProxyJump entry 'a@@b' is not [user@]host[:port]");
    assertThatThrownBy(() -> config("Host a\n  User\n")).hasMessage("ssh config " + file + " line 2: User has no "
        + "value");
    assertThatThrownBy(() -> SshConfig.read(dir.resolve("missing"), false))
        .hasMessageStartingWith("ssh config " + dir.resolve("missing") + " cannot be read");
    assertThat(SshConfig.read(dir.resolve("missing"), true).lookup("web").isEmpty()).isTrue();
  }
}
