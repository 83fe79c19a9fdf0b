package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory's hosts as OpenSSH aliases: the config fills what the inventory (host or defaults) leaves out. */
@Tag("unit")
class InventorySshConfigTest {

  @TempDir Path dir;

  @Test
  void theInventoryWinsWhereItSpeaksAndTheConfigFillsTheRest() throws Exception {
    Path key = Files.writeString(dir.resolve("web_key"), "k");
    Files.writeString(dir.resolve("known_hosts"), "");
    Files.writeString(dir.resolve("ssh_config"), """
        Host web
          HostName 203.0.113.10
          User ubuntu
          Port 2222
          IdentityFile %s
          ProxyJump ops@bastion
        Host bastion
          HostName 203.0.113.7
          Port 2200
        """.formatted(key));
    Path inventory = Files.writeString(dir.resolve("fleet.yaml"), """
        defaults:
          known_hosts: known_hosts
          ssh_config: ssh_config
        hosts:
          - address: web
          - name: web-direct
            address: web
            user: root
            port: 22
            proxy_jump: []
        """);
    SshTarget web = Inventory.load(inventory).hosts().get(0).target();
    assertThat(web.name()).isEqualTo("web");
    assertThat(web.address()).isEqualTo("203.0.113.10");
    assertThat(web.user()).isEqualTo("ubuntu");
    assertThat(web.port()).isEqualTo(2222);
    assertThat(web.identity()).isEqualTo(key);
    assertThat(web.jumpPath()).isEqualTo("ops@203.0.113.7:2200");
    assertThat(web.jumps().get(0).knownHosts()).isEqualTo(dir.resolve("known_hosts"));

    SshTarget direct = Inventory.load(inventory).hosts().get(1).target();
    assertThat(direct.address()).isEqualTo("203.0.113.10");
    assertThat(direct.user()).isEqualTo("root");
    assertThat(direct.port()).isEqualTo(22);
    assertThat(direct.jumps()).isEmpty();

    Files.writeString(dir.resolve("ssh_config"), "Host web\n  IdentityFile /nonexistent/key\n");
    assertThatThrownBy(() -> Inventory.load(inventory)).isInstanceOf(InventoryException.class)
        .hasMessage("inventory " + inventory + " host #1 (web): ssh config " + dir.resolve("ssh_config")
            + " line 2 (Host web): IdentityFile /nonexistent/key is not a readable file");
  }

  @Test
  void withoutAKeyFileTheAgentServesAndWithoutEitherTheEntryIsRefused() throws Exception {
    String home = System.getProperty("user.home");
    System.setProperty("user.home", dir.toString()); // no ~/.ssh/id_* here
    try {
      Files.writeString(dir.resolve("known_hosts"), "");
      Files.writeString(dir.resolve("ssh_config"), "Host web\n  IdentityAgent " + dir.resolve("agent.sock")
          + "\nHost db\n  IdentityAgent none\n");
      Path inventory = Files.writeString(dir.resolve("fleet.yaml"), """
          defaults: { known_hosts: known_hosts, ssh_config: ssh_config }
          hosts:
            - address: web
          """);
      SshTarget web = Inventory.load(inventory).hosts().get(0).target();
      assertThat(web.identity()).isNull();
      assertThat(web.agent()).isEqualTo(dir.resolve("agent.sock"));

      Files.writeString(inventory, Files.readString(inventory).replace("address: web", "address: db"));
      assertThatThrownBy(() -> Inventory.load(inventory)).isInstanceOf(InventoryException.class)
          .hasMessageContaining("host #1 (db): no identity given, none of ~/.ssh/id_ed25519, ~/.ssh/id_ecdsa, "
              + "~/.ssh/id_rsa exists and no ssh-agent");
    } finally {
      System.setProperty("user.home", home);
    }
  }
}
