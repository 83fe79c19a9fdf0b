package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inventory writes its connect timeout as plans write durations; the old connect_timeout_s still works. */
@Tag("unit")
class InventoryDurationsTest {

  @TempDir Path dir;

  private Path inventory(String defaults, String host) throws Exception {
    Files.writeString(dir.resolve("id"), "not read here");
    return Files.writeString(dir.resolve("fleet.yaml"), """
        defaults: { identity: id, host_key_policy: accept-new, ssh_config: none%s }
        hosts:
          - { name: a, address: 198.18.0.2%s }
        """.formatted(defaults, host));
  }

  private static Duration timeout(Inventory inventory) {
    return inventory.hosts().get(0).target().connectTimeout();
  }

  @Test
  void connectTimeoutTakesThePlansDurations() throws Exception {
    assertThat(timeout(Inventory.load(inventory("", "")))).isEqualTo(Duration.ofSeconds(10));
    assertThat(timeout(Inventory.load(inventory(", connect_timeout: 1500ms", "")))).isEqualTo(Duration.ofMillis(1500));
    assertThat(timeout(Inventory.load(inventory(", connect_timeout: 1m", ", connect_timeout: 5s"))))
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void theOldSecondsKeyStillWorksWithOneWarning() throws Exception {
    Path file = inventory(", connect_timeout_s: 7", "");
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    Inventory inventory;
    try {
      inventory = Inventory.load(file);
    } finally {
      System.setErr(err);
    }
    assertThat(timeout(inventory)).isEqualTo(Duration.ofSeconds(7));
    assertThat(captured.toString(StandardCharsets.UTF_8).lines()).containsExactly("inventory " + file
        + " defaults: warning: connect_timeout_s is deprecated and will be removed in the next release; write "
        + "connect_timeout: 7s");
  }

  @Test
  void aBareNumberOrBothSpellingsAreErrorsNamingTheHost() throws Exception {
    Path bare = inventory("", ", connect_timeout: 10");
    assertThatThrownBy(() -> Inventory.load(bare)).isInstanceOf(InventoryException.class)
        .hasMessage("inventory " + bare + " host #1 (a): connect_timeout '10' is not a duration such as 10s, 500ms "
            + "or 1m");
    Path both = inventory("", ", connect_timeout: 5s, connect_timeout_s: 5");
    assertThatThrownBy(() -> Inventory.load(both)).isInstanceOf(InventoryException.class)
        .hasMessageContaining("both connect_timeout and connect_timeout_s");
  }
}
