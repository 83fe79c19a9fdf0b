package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link EthtoolFeatures} on real {@code ethtool -k} outputs captured on this machine (see ethtool/README.md). */
@Tag("unit")
class EthtoolFeaturesTest {

  private static List<String> fixture(String name) throws IOException {
    try (InputStream in = EthtoolFeaturesTest.class.getResourceAsStream("ethtool/" + name)) {
      assertThat(in).as("fixture " + name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Test
  void aVethKeepsEveryTopLevelFeatureWithItsStateAsEthtoolPrintsIt() throws IOException {
    Map<String, String> f = EthtoolFeatures.parse(fixture("ethtool-k-veth.txt"));
    assertThat(f).hasSize(51); // 64 lines: the header, 51 features, 12 sub-features
    assertThat(f).containsEntry("tcp-segmentation-offload", "on")
        .containsEntry("generic-segmentation-offload", "on")
        .containsEntry("generic-receive-offload", "off")
        .containsEntry("large-receive-offload", "off [fixed]")
        .containsEntry("rx-checksumming", "on")
        .containsEntry("tx-nocache-copy", "off")
        .containsEntry("hsr-dup-offload", "off [fixed]"); // the last line
    // names with underscores are features too
    assertThat(f).containsEntry("tx-udp_tnl-segmentation", "on")
        .containsEntry("tx-udp_tnl-csum-segmentation", "on")
        .containsEntry("rx-udp_tunnel-port-offload", "off [fixed]");
    // the header and the tab-indented sub-features are not
    assertThat(f).doesNotContainKeys("Features for npeth-va", "tx-checksum-ipv4", "tx-tcp-segmentation",
        "tx-scatter-gather");
    assertThat(f.values()).filteredOn(v -> v.endsWith("[fixed]")).hasSize(28);
    assertThat(f.values()).filteredOn("on"::equals).hasSize(19);
  }

  @Test
  void offloadsChangedWithEthtoolKReadBack() throws IOException {
    Map<String, String> before = EthtoolFeatures.parse(fixture("ethtool-k-veth.txt"));
    Map<String, String> after = EthtoolFeatures.parse(fixture("ethtool-k-veth-tso-off-gro-on.txt"));
    assertThat(after).containsEntry("tcp-segmentation-offload", "off").containsEntry("generic-receive-offload", "on");
    // nothing else moved
    Map<String, String> rest = new java.util.TreeMap<>(after);
    rest.put("tcp-segmentation-offload", "on");
    rest.put("generic-receive-offload", "off");
    assertThat(rest).isEqualTo(before);
  }

  @Test
  void aRequestedStateTheDriverDidNotGrantIsKept() throws IOException {
    Map<String, String> f = EthtoolFeatures.parse(fixture("ethtool-k-veth-tx-off.txt"));
    assertThat(f).containsEntry("tx-checksumming", "off")
        .containsEntry("tx-udp-segmentation", "off [requested on]")
        // its sub-features say "off [requested on]"; the group line stays as printed
        .containsEntry("tcp-segmentation-offload", "on");
    assertThat(f).hasSize(51);
  }

  @Test
  void loopbackHasMostFeaturesFixed() throws IOException {
    Map<String, String> f = EthtoolFeatures.parse(fixture("ethtool-k-lo.txt"));
    assertThat(f).hasSize(51);
    assertThat(f).containsEntry("rx-checksumming", "on [fixed]")
        .containsEntry("loopback", "on [fixed]")
        .containsEntry("generic-receive-offload", "on")
        .containsEntry("tcp-segmentation-offload", "on")
        .containsEntry("large-receive-offload", "off [fixed]");
    assertThat(f.values()).filteredOn(v -> v.endsWith("[fixed]")).hasSize(41);
    assertThat(io.netpulse.launcher.run.ResultTable.machine(new io.netpulse.common.event.HostInfo("h", "k", "c", 1, 1L,
        "lo", "unknown", 1, 1, 65536, f, Map.of()))).endsWith("offloads tso on gso on gro on lro off");
  }

  @Test
  void ethtoolFailingOnTheDeviceIsANoteNotAFailure() throws IOException {
    EthtoolFeatures.Offloads o = EthtoolFeatures.read("nosuchdev", 1, List.of(),
        fixture("ethtool-k-no-such-device.txt"));
    assertThat(o.features()).as("ethtool is there but said nothing usable").isEmpty();
    assertThat(o.note()).isEqualTo("offloads unknown: ethtool -k nosuchdev failed (exit 1): "
        + "netlink error: no device matches name (offset 24)");
    EthtoolFeatures.Offloads ok = EthtoolFeatures.read("npeth-va", 0, fixture("ethtool-k-veth.txt"), List.of());
    assertThat(ok.note()).isNull();
    assertThat(ok.features()).hasSize(51);
  }

  @Test
  void withoutEthtoolTheOffloadsAreUnknownAndSaySo() {
    assertThat(EthtoolFeatures.NOT_INSTALLED.features()).isNull();
    assertThat(EthtoolFeatures.NOT_INSTALLED.note()).contains("ethtool is not installed");
    assertThat(io.netpulse.launcher.run.ResultTable.machine(new io.netpulse.common.event.HostInfo("h", "k", "c", 1, 1L,
        "eth0", "virtio_net", 1, 1, 1500, null, Map.of()))).endsWith("offloads unknown (no ethtool on the host)");
  }

  @Test
  void aLineThatIsNoFeatureIsNamedByItsNumber() throws IOException {
    List<String> lines = new java.util.ArrayList<>(fixture("ethtool-k-veth.txt"));
    lines.add(3, "udp-fragmentation-offload off"); // no colon
    assertThatThrownBy(() -> EthtoolFeatures.parse(lines)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("line 4: not a feature (name: on|off [fixed]): 'udp-fragmentation-offload off'");
    EthtoolFeatures.Offloads o = EthtoolFeatures.read("eth0", 0, lines, List.of());
    assertThat(o.features()).isEmpty();
    assertThat(o.note()).startsWith("offloads unknown: ethtool -k eth0 output line 4: not a feature");
    // an empty answer with exit 0
    assertThat(EthtoolFeatures.read("eth0", 0, List.of(), List.of()).note()).isEqualTo(
        "offloads unknown: ethtool -k eth0 listed no feature");
  }
}
