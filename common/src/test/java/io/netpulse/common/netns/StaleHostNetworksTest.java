package io.netpulse.common.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.common.netns.StaleHostNetworks.Leftover;
import io.netpulse.common.netns.StaleHostNetworks.Owner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A JVM killed with SIGKILL leaves its host network behind; StaleHostNetworks finds and removes exactly that. */
class StaleHostNetworksTest {

    @Test
    void linkNamesReadBackToTheirOwner() {
        // HostNetwork's own naming: "np" + pid base 36 + "x" + instance base 36 + "b" | "v" + host base 36
        assertThat(StaleHostNetworks.linkOwners("np" + Long.toString(14874, 36) + "x8b")).containsExactly(new Owner(14874, 8));
        assertThat(StaleHostNetworks.linkOwners("npbh6x8v1")).containsExactly(new Owner(14874, 8));
        assertThat(StaleHostNetworks.linkOwners("npbh6x8va")).containsExactly(new Owner(14874, 8));
        // a pid whose base 36 holds an 'x' can be read two ways; both are offered
        assertThat(StaleHostNetworks.linkOwners("np1x2x3b")).containsExactlyInAnyOrder(
                new Owner(Long.parseLong("1x2", 36), 3), new Owner(1, Integer.parseInt("2x3", 36)));
        assertThat(StaleHostNetworks.linkOwners("eth0")).isEmpty();
        assertThat(StaleHostNetworks.linkOwners("npx1b")).isEmpty();
        assertThat(StaleHostNetworks.linkOwners("np12x")).isEmpty();
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
