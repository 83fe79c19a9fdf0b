package io.netpulse.testbed.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.testbed.netns.StaleHostNetworks.Leftover;
import io.netpulse.testbed.netns.StaleHostNetworks.Owner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A JVM killed with SIGKILL leaves its host network behind; StaleHostNetworks finds and removes exactly that. */
@Tag("root")
class StaleHostNetworksTest {

    @Test
    void linkNamesReadBackToTheirOwner() {
        // HostNetwork's own naming: "np" + pid base 36 + "-" + instance base 36 + "-" + "b" | "v" + host base 36
        assertThat(StaleHostNetworks.linkOwner("np" + Long.toString(14874, 36) + "-8-b")).contains(new Owner(14874, 8));
        assertThat(StaleHostNetworks.linkOwner("npbh6-8-v1")).contains(new Owner(14874, 8));
        assertThat(StaleHostNetworks.linkOwner("npbh6-a-va")).contains(new Owner(14874, 10));
        // 25818 is "jx6" in base 36: with 'x' as the separator (before) this read also as PID 19, which is alive on
        // most machines, so the bridge was not counted as stale (the failing CI run of 2026-11-30)
        assertThat(StaleHostNetworks.linkOwner("npjx6-1-b")).contains(new Owner(25818, 1));
        for (String other : List.of("eth0", "np-1-b", "np1--b", "np1-2-", "np1-2-x", "npbh6x8b", "np1-2-v", "veth0")) {
            assertThat(StaleHostNetworks.linkOwner(other)).as(other).isEmpty();
        }
    }

    @Test
    void aNetworksOwnLinkNamesReadBackToThisJvm() {
        assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
        try (HostNetwork net = HostNetwork.create("stale-test-names", 2)) {
            Owner owner = StaleHostNetworks.linkOwner(net.bridge()).orElseThrow();
            assertThat(owner.pid()).isEqualTo(ProcessHandle.current().pid());
            for (NetHost host : net.hosts()) {
                assertThat(StaleHostNetworks.linkOwner(host.bridgePort())).contains(owner);
                assertThat(host.namespace()).startsWith("np-" + owner.pid() + "-" + owner.instance() + "-h");
            }
        }
    }

    @Test
    void namesUnderThisPidAreFoundWhateverTheirAge() {
        assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
        // what an earlier JVM with this PID would have left: this JVM counts as its owner (alive, not "gone"), so
        // only namedFor, which HostNetwork calls before its first network, finds it
        long pid = ProcessHandle.current().pid();
        int instance = 900;
        String ns = HostNetwork.namespaceName(pid, instance, 1);
        String bridge = HostNetwork.linkName(pid, instance, "b");
        IpTool.ip("netns", "add", ns);
        try {
            IpTool.ip("link", "add", bridge, "type", "bridge");
            Leftover left = StaleHostNetworks.namedFor(pid).stream().filter(l -> l.instance() == instance)
                    .findFirst().orElseThrow();
            assertThat(left.namespaces()).containsExactly(ns);
            assertThat(left.links()).containsExactly(bridge);
            assertThat(StaleHostNetworks.find()).noneMatch(l -> l.ownerPid() == pid);

            StaleHostNetworks.remove(left);
            assertThat(Path.of("/run/netns", ns)).doesNotExist();
            assertThat(Path.of("/sys/class/net", bridge)).doesNotExist();
        } finally {
            HostNetworkShutdownTest.removeLeftovers(List.of(ns), List.of(bridge));
        }
    }

    @Test
    void aKilledOwnersNetworkIsFoundKeptWhileBusyAndThenRemoved() throws Exception {
        assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
        Process child = ShutdownHookProbe.start();
        String[] names = null;
        try (HostNetwork mine = HostNetwork.create("stale-test-live", 1)) {
            String line = new BufferedReader(new InputStreamReader(child.getInputStream())).readLine();
            assertThat(line).as("probe output").isNotNull();
            names = line.split(" ");
            long sleeper = Long.parseLong(names[5]);
            child.destroyForcibly(); // SIGKILL: no shutdown hook runs, the network stays
            assertThat(child.waitFor(15, TimeUnit.SECONDS)).isTrue();
            assertThat(Path.of("/run/netns", names[1])).exists();

            Leftover left = ofOwner(child.pid()).orElseThrow();
            assertThat(left.namespaces()).containsExactlyInAnyOrder(names[1], names[2]);
            assertThat(left.links()).contains(names[0]).containsAnyOf(names[3], names[4]);
            assertThat(left.busy()).containsExactly(sleeper);
            assertThat(StaleHostNetworks.find()).as("a live owner's network is not stale")
                    .noneMatch(l -> l.namespaces().contains(mine.hosts().get(0).namespace())
                            || l.links().contains(mine.bridge()));

            assertThatThrownBy(() -> StaleHostNetworks.remove(left)).hasMessageContaining(Long.toString(sleeper))
                    .hasMessageContaining("kill");
            assertThat(Path.of("/run/netns", names[1])).as("nothing removed while busy").exists();

            ProcessTree.stop(ProcessHandle.of(sleeper).stream().toList(), Duration.ofSeconds(2));
            Leftover idle = ofOwner(child.pid()).orElseThrow();
            assertThat(idle.busy()).isEmpty();
            StaleHostNetworks.remove(idle);

            for (String ns : List.of(names[1], names[2])) {
                assertThat(Path.of("/run/netns", ns)).doesNotExist();
            }
            for (String link : List.of(names[0], names[3], names[4])) {
                assertThat(Path.of("/sys/class/net", link)).doesNotExist();
            }
            assertThat(ofOwner(child.pid())).isEmpty();
            assertThat(Path.of("/run/netns", mine.hosts().get(0).namespace())).as("the live network kept").exists();
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
            if (names != null) {
                HostNetworkShutdownTest.removeLeftovers(names);
            }
        }
    }

    private static Optional<Leftover> ofOwner(long pid) {
        return StaleHostNetworks.find().stream().filter(l -> l.ownerPid() == pid).findFirst();
    }
}
