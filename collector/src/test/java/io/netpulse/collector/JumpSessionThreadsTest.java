package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session through a jump host connected by a thread that then ends (as the launcher's connect pool does) takes its
 * first command at once. It used to be down now and then (jsch's pipe, see ChannelPipe): under load within a few
 * rounds; {@code -Drounds=150} with the cores busy is the stress run that showed the fix.
 */
@Tag("root")
class JumpSessionThreadsTest {

  @RegisterExtension static final TestHosts HOSTS = TestHosts.behindBastion();

  @TempDir Path dir;

  @Test
  void aSessionConnectedByAThreadThatHasEndedStillWorks() throws Exception {
    Path file = InventoryProxyJumpTest.inventoryBehindBastion(dir, HOSTS);
    SshTarget target = Inventory.load(file).hosts().get(0).target();
    for (int round = 0; round < Integer.getInteger("rounds", 25); round++) {
      try (SshConnection connection = new SshConnection(target)) {
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread connecting = new Thread(() -> {
          try {
            connection.session();
          } catch (Exception e) {
            failed.set(e);
          }
        });
        connecting.start();
        connecting.join();
        assertThat(failed.get()).isNull();
        assertThat(connection.run("true")).as("round " + round).isEqualTo(0);
      }
    }
  }
}
