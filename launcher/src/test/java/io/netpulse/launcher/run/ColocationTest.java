package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.remote.HostFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host whose kernel boot id is this machine's is the machine netpulse runs on. */
@Tag("unit")
class ColocationTest {

  private static HostFacts facts(String host, String bootId) {
    return new HostFacts(host, Map.of(), List.of(), "eth0", 1, 1024, 1, 1, "6.1", bootId);
  }

  @Test
  void hostsWithThisMachinesBootIdAreFlaggedInTheTestsOrder() throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
          aux1: { address: 198.18.0.3 }
        tests:
          - { type: rx_bandwidth, clients: [peer, aux1] }
          - { type: latency, sut: aux1, peer: peer }
        """);
    Colocation c = Colocation.of(Map.of("sut", facts("sut", "b-1"), "peer", facts("peer", "other"),
        "aux1", facts("aux1", "b-1")), "b-1");
    assertThat(c.of(plan.tests().get(0))).containsExactly("sut", "aux1");
    assertThat(c.of(plan.tests().get(1))).containsExactly("aux1");
    assertThat(c.warning()).isEqualTo("hosts aux1, sut are the machine running netpulse (same kernel boot id): its "
        + "load is on their CPUs, and every repetition on them is flagged");
    // no boot id here (not Linux), or none on the host: nothing to say
    assertThat(Colocation.of(Map.of("sut", facts("sut", "b-1")), null).hosts()).isEmpty();
    assertThat(Colocation.of(Map.of("sut", facts("sut", null)), "b-1").warning()).isNull();
  }

  @Test
  void theBootIdIsReadFromProcOrIsNull(@TempDir Path dir) throws Exception {
    Path id = dir.resolve("boot_id");
    Files.writeString(id, "1c053422-7082-4e63-b098-db9b9f5370f6\n");
    assertThat(Colocation.readBootId(id)).isEqualTo("1c053422-7082-4e63-b098-db9b9f5370f6");
    assertThat(Colocation.readBootId(dir.resolve("none"))).isNull();
    if (Files.isReadable(Colocation.BOOT_ID)) { // Linux: the same text the preflight probe prints for a host
      assertThat(Colocation.readBootId(Colocation.BOOT_ID)).matches("[0-9a-f-]{36}");
    }
  }
}
