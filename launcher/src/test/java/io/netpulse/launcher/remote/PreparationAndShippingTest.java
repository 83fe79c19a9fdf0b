package io.netpulse.launcher.remote;

import static io.netpulse.launcher.remote.RemoteHostsTest.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.plan.IrqAffinity;
import io.netpulse.launcher.plan.PrepareSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Preflight, host preparation and jar shipping against the sshd of the TestHosts' sut. */
@Tag("root")
class PreparationAndShippingTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Path FILE_MAX = Path.of("/proc/sys/fs/file-max");
  private static final Path NR_OPEN = Path.of("/proc/sys/fs/nr_open");
  private static RemoteHosts hosts;

  @TempDir Path dir;

  @BeforeAll
  static void connect() throws RemoteFailure {
    hosts = RemoteHosts.connect(List.of(spec(HOSTS, HOSTS.peer()), spec(HOSTS, HOSTS.sut())), Duration.ofSeconds(5));
  }

  @AfterAll
  static void close() {
    if (hosts != null) {
      hosts.close();
    }
  }

  /** Files.readString reads only the first byte of these /proc files on this kernel (size 1 reported); streams work. */
  private static long readLong(Path procFile) throws java.io.IOException {
    try (java.io.InputStream in = new java.io.FileInputStream(procFile.toFile())) {
      return Long.parseLong(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip());
    }
  }

  @Test
  void preflightFindsTheInterfaceTowardsThePeerVersionsAndLimits() throws Exception {
    HostFacts facts = Preflight.check(hosts.host("sut"), Set.of("netperf", "iperf3", "sar", "ss", "java"),
        HOSTS.peer().address());
    assertThat(facts.host()).isEqualTo("sut");
    assertThat(facts.iface()).isEqualTo(HOSTS.sut().iface());
    assertThat(facts.queues()).isGreaterThanOrEqualTo(1);
    assertThat(facts.toolVersions().get("netperf")).startsWith("Netperf version ");
    assertThat(facts.toolVersions().get("iperf3")).matches("iperf 3\\.\\d+.*");
    assertThat(facts.toolVersions().get("sar")).startsWith("sysstat version ");
    assertThat(facts.toolVersions().get("java")).contains("version");
    assertThat(facts.missingTools()).isEmpty();
    assertThat(facts.nrOpen()).isEqualTo(readLong(NR_OPEN));
    assertThat(facts.fileMax()).isPositive();
    assertThat(facts.nofile()).isNotZero();
    assertThat(facts.kernel()).isEqualTo(System.getProperty("os.version"));
    Preflight.requireTools(facts); // nothing missing: no failure
    // provenance, from the same probe: the namespaces share this machine's CPUs and memory
    Machine m = facts.machine();
    assertThat(m.memoryKib()).isEqualTo(memTotalKib());
    assertThat(m.vcpus()).isBetween(1, 8192);
    assertThat(m.cpuModel()).isNotBlank();
    assertThat(m.mtuBytes()).isBetween(68, 65536);
    assertThat(m.txQueues()).isGreaterThanOrEqualTo(1);
    assertThat(m.nicDriver()).isEqualTo(HostFacts.UNKNOWN); // a veth has no device, so no driver
    // ethtool is installed here (bin/install-deps): the veth's offloads, as ethtool -k lists them
    // (EthtoolFeaturesTest reads captured outputs of the same kind)
    assertThat(m.offloadsNote()).isNull();
    assertThat(m.offloads()).hasSizeGreaterThan(40)
        .containsKeys("tcp-segmentation-offload", "generic-receive-offload", "tx-udp_tnl-segmentation")
        .containsEntry("large-receive-offload", "off [fixed]");
    assertThat(m.offloads().values()).allMatch(v -> v.matches("(on|off)( \\[[a-z ]+\\])?"));
    assertThat(facts.info().offloads()).isEqualTo(m.offloads());
    assertThat(io.netpulse.launcher.run.ResultTable.machine(facts.info()))
        .contains("driver unknown", "MTU " + m.mtuBytes())
        .containsPattern("offloads tso o(n|ff) gso o(n|ff) gro o(n|ff) lro off$");
  }

  /** A host without ethtool (a PATH without it, ip still on it): its offloads are unknown and say why; no failure. */
  @Test
  void aHostWithoutEthtoolHasUnknownOffloadsAndSaysSo() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("ip"), Path.of(java.util.stream.Stream.of("/usr/sbin/ip", "/sbin/ip",
        "/usr/bin/ip", "/bin/ip").filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElseThrow()));
    HostFacts facts = Preflight.check(hosts.host("sut"), Set.of("iperf3"), HOSTS.peer().address(),
        java.util.Map.of("PATH", bin + ":/usr/bin:/bin"));
    assertThat(new ProcessBuilder("sh", "-c", "PATH=" + bin + ":/usr/bin:/bin command -v ethtool").start().waitFor())
        .as("ethtool must not be on that PATH").isNotZero();
    assertThat(facts.iface()).isEqualTo(HOSTS.sut().iface());
    assertThat(facts.missingTools()).isEmpty();
    assertThat(facts.machine().offloads()).as("unknown").isNull();
    assertThat(facts.machine().offloadsNote())
        .isEqualTo("offloads unknown: ethtool is not installed (Debian package ethtool)");
    assertThat(facts.info().offloads()).isNull();
    assertThat(io.netpulse.launcher.run.ResultTable.machine(facts.info()))
        .endsWith("offloads unknown (no ethtool on the host)");
  }

  private static long memTotalKib() throws java.io.IOException {
    return java.nio.file.Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
        .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElseThrow();
  }

  @Test
  void aMissingToolIsNamedWithHowToGetIt() throws Exception {
    HostFacts facts = Preflight.check(hosts.host("sut"), Set.of("iperf3", "netpulse-no-such-tool"),
        HOSTS.peer().address());
    assertThat(facts.missingTools()).containsExactly("netpulse-no-such-tool");
    assertThat(facts.toolVersions()).containsOnlyKeys("iperf3");
    assertThatThrownBy(() -> Preflight.requireTools(facts)).isInstanceOf(RemoteFailure.class)
        .hasMessage("host sut: netpulse-no-such-tool not found; install it or run with --install-tools");
    HostFacts noNetperf = new HostFacts("sut", java.util.Map.of(), List.of("netperf"), "eth0", 1, 1024, 1, 1, "k");
    assertThatThrownBy(() -> Preflight.requireTools(noNetperf))
        .hasMessage("host sut: netperf not found; install it (Debian: netperf is in non-free) or run with "
            + "--install-tools");
    // a program without a known package fails before anything is run on the host
    assertThatThrownBy(() -> Preflight.install(hosts.host("sut"), List.of("netpulse-no-such-tool")))
        .isInstanceOf(RemoteFailure.class)
        .hasMessage("host sut: no package known for netpulse-no-such-tool; install it by hand");
  }

  @Test
  void preflightWithoutARouteToThePeerSaysSo() {
    assertThatThrownBy(() -> Preflight.check(hosts.host("sut"), Set.of(), "198.19.255.254"))
        .isInstanceOf(RemoteFailure.class)
        .hasMessageContaining("host sut: no route to the peer address 198.19.255.254");
  }

  @Test
  void fileMaxIsRaisedForTheRunAndRestoredAfterwards() throws Exception {
    long before = readLong(FILE_MAX);
    long wanted = before + 4096; // a small raise: the namespaces share this sysctl with the whole machine
    HostPreparation prep = HostPreparation.apply(hosts.host("sut"), new PrepareSpec(null, null, wanted, null));
    try {
      assertThat(readLong(FILE_MAX)).isEqualTo(wanted);
      assertThat(prep.changes()).containsExactly("fs.file-max " + before + " → " + wanted);
    } finally {
      prep.close();
    }
    assertThat(readLong(FILE_MAX)).isEqualTo(before);
    prep.close(); // idempotent
    assertThat(readLong(FILE_MAX)).isEqualTo(before);
  }

  @Test
  void aLimitAlreadyHighEnoughIsLeftAsIsAndNeverLowered() throws Exception {
    long nrOpen = readLong(NR_OPEN);
    try (HostPreparation prep = HostPreparation.apply(hosts.host("sut"), new PrepareSpec(null, 1024L, null, null))) {
      assertThat(prep.changes()).isEmpty();
      assertThat(prep.notes()).containsExactly("fs.nr_open is " + nrOpen + ", already at least 1024; left as is");
    }
    assertThat(readLong(NR_OPEN)).isEqualTo(nrOpen);
  }

  @Test
  void irqBindingWithoutMatchingIrqsIsANoOpWithANote() throws Exception {
    String match = HOSTS.sut().iface() + "-netpulse-input"; // veth has no IRQs at all
    try (HostPreparation prep = HostPreparation.bindIrqs(hosts.host("sut"), new IrqAffinity(match, 0, 2))) {
      assertThat(prep.changes()).isEmpty();
      assertThat(prep.notes()).singleElement().asString()
          .startsWith("IRQ affinity: no IRQ in /proc/interrupts matches '" + match + "'; nothing bound");
    }
  }

  @Test
  void jarIsShippedOnceAndSkippedWhileItsSha256Matches() throws Exception {
    Path jar = dir.resolve("netpulse.jar");
    byte[] content = new byte[300_000];
    new java.util.Random(42).nextBytes(content);
    Files.write(jar, content);
    RemoteHost sut = hosts.host("sut");
    // the test hosts share this machine's /root: a directory of our own, never the real ~/.netpulse
    String remoteDir = ".netpulse-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    String remoteJar = "/root/" + remoteDir + "/netpulse.jar";
    try {
      assertThat(JarShipper.shipIfChanged(sut, jar, remoteDir, "netpulse.jar")).as("first copy").isTrue();
      assertThat(Files.readAllBytes(Path.of(remoteJar))).isEqualTo(content);
      assertThat(sut.exec(RemoteCommand.of("sha256sum", remoteJar), Duration.ofSeconds(10)).stdout())
          .startsWith(JarShipper.sha256(sut, jar) + " ");
      long modified = Files.getLastModifiedTime(Path.of(remoteJar)).toMillis();
      assertThat(JarShipper.shipIfChanged(sut, jar, remoteDir, "netpulse.jar")).as("same sha256: skipped").isFalse();
      assertThat(Files.getLastModifiedTime(Path.of(remoteJar)).toMillis()).isEqualTo(modified);
      Files.write(jar, new byte[] {1, 2, 3});
      assertThat(JarShipper.shipIfChanged(sut, jar, remoteDir, "netpulse.jar")).as("changed: copied").isTrue();
      assertThat(Files.readAllBytes(Path.of(remoteJar))).containsExactly(1, 2, 3);
      assertThat(Path.of("/root", remoteDir, "netpulse.jar.part")).doesNotExist();
    } finally {
      sut.exec(RemoteCommand.of("rm", "-rf", "/root/" + remoteDir), Duration.ofSeconds(10));
    }
  }
}
