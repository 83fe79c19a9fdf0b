package io.netpulse.testbed.netns;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Tag("root")
class HostNetworkTest {
    private static final Duration T = Duration.ofSeconds(10);

    @BeforeAll
    static void needsRoot() {
        assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
    }

    @Test
    void closeStopsTrackedDescendantAndDaemonisedProcessesThenDeletesOnlyItsOwnLinks() throws Exception {
        HostNetwork net = HostNetwork.create("cleanup", 2);
        NetHost h1 = net.hosts().get(0);
        NetHost h2 = net.hosts().get(1);
        assertThat(net.hosts()).extracting(NetHost::address)
                .containsExactly(prefix(net) + "1", prefix(net) + "2");
        assertThat(net.bridgeAddress()).isEqualTo(prefix(net) + "254");
        assertThat(net.subnet()).matches("198\\.18\\.\\d{1,3}\\.0/24");
        assertThat(ip("-n", h1.namespace(), "-o", "link", "show", "lo")).contains("UP");
        // IPv4 in 198.18.0.0/15 only: no IPv6 address anywhere on this network
        assertThat(ip("-n", h1.namespace(), "-6", "-o", "addr", "show")).isBlank();
        assertThat(ip("-6", "-o", "addr", "show", "dev", net.bridge())).isBlank();
        assertThat(ip("-6", "-o", "addr", "show", "dev", h1.bridgePort())).isBlank();

        Process tree = net.start(h1, List.of("sh", "-c", "sleep 300 & sleep 300 & wait"));
        // ip netns exec execs in place: the PID we track is the command itself, inside the namespace
        // (once it has joined it: the started `ip netns exec` enters the namespace when it gets to run, on a loaded
        // machine after this line has)
        String identified = "";
        for (int i = 0; i < 100 && identified.isEmpty(); i++) {
            identified = ip("netns", "identify", Long.toString(tree.pid())).strip();
            if (identified.isEmpty()) {
                Thread.sleep(20);
            }
        }
        assertThat(identified).isEqualTo(h1.namespace());
        // a daemon escapes the process tree; close() must still find it inside the namespace
        net.run(h2, List.of("sh", "-c", "setsid sleep 300 >/dev/null 2>&1 </dev/null &"), T);
        Set<Long> pids = new HashSet<>();
        for (int i = 0; i < 100 && pids.size() < 4; i++) {
            pids.clear();
            pids.addAll(pidsIn(h1.namespace()));
            pids.addAll(pidsIn(h2.namespace()));
            Thread.sleep(20);
        }
        assertThat(pids).hasSize(4).contains(tree.pid());
        // a link of someone else's (a sentinel: the machine's other links may come and go meanwhile) must survive
        String foreign = "ntk" + Long.toString(ProcessHandle.current().pid(), 36);
        ip("link", "add", foreign, "type", "bridge"); // no dummy driver on every kernel
        try {
            net.close();

            assertThat(pids).noneMatch(ProcessTree::isAlive);
            assertGone(net);
            assertThat(Path.of("/sys/class/net", foreign)).as("foreign link " + foreign).exists();
            assertThat(Path.of("/sys/class/net", "lo")).exists();
        } finally {
            ip("link", "del", foreign);
        }
        net.close(); // idempotent
        assertThatThrownBy(() -> net.start(h1, List.of("true"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void cleanupHappensWhenTheBodyThrows() {
        List<HostNetwork> seen = new ArrayList<>();
        List<Long> pids = new ArrayList<>();
        assertThatThrownBy(() -> {
            try (HostNetwork net = HostNetwork.create("throws", 1)) {
                seen.add(net);
                pids.add(net.start(net.hosts().get(0), List.of("sleep", "300")).pid());
                throw new IllegalStateException("test body failed");
            }
        }).hasMessage("test body failed");
        assertThat(pids).noneMatch(ProcessTree::isAlive);
        assertGone(seen.get(0));
    }

    @Test
    void twoNetworksAtOnceGetDifferentSubnetsAndBothCarryTraffic() throws Exception {
        // created concurrently to exercise the subnet lock
        CompletableFuture<HostNetwork> fa = CompletableFuture.supplyAsync(() -> HostNetwork.create("a", 2));
        CompletableFuture<HostNetwork> fb = CompletableFuture.supplyAsync(() -> HostNetwork.create("b", 2));
        try (HostNetwork a = fa.join(); HostNetwork b = fb.join()) {
            assertThat(a.subnet()).isNotEqualTo(b.subnet());
            assertThat(a.bridge()).isNotEqualTo(b.bridge());
            for (HostNetwork net : List.of(a, b)) {
                NetHost h1 = net.hosts().get(0);
                NetHost h2 = net.hosts().get(1);
                String ping = net.run(h1, List.of("ping", "-c", "2", "-i", "0.2", "-W", "2", h2.address()), T);
                assertThat(ping).contains("2 received");
                // the JVM's namespace reaches the hosts through the bridge
                assertThat(IpTool.run(List.of("ping", "-c", "1", "-W", "2", h2.address()), T)).contains("1 received");
            }
        }
    }

    @Test
    void runReportsTheExitCodeStderrAndHost() {
        try (HostNetwork net = HostNetwork.create("errors", List.of("alpha"))) {
            NetHost alpha = net.host("alpha");
            assertThat(net.run(alpha, List.of("echo", "hi"), T)).isEqualTo("hi\n");
            assertThatThrownBy(() -> net.run(alpha, List.of("sh", "-c", "echo broken >&2; exit 3"), T))
                    .isInstanceOf(HostNetworkException.class)
                    .hasMessageContaining("alpha").hasMessageContaining("exited 3").hasMessageContaining("broken");
            assertThatThrownBy(() -> net.run(alpha, List.of("sleep", "5"), Duration.ofMillis(300)))
                    .hasMessageContaining("timed out");
            assertThatThrownBy(() -> net.host("beta")).hasMessageContaining("no host 'beta'")
                    .hasMessageContaining("alpha");
        }
        assertThatThrownBy(() -> HostNetwork.create("bad", List.of("x", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
    }

    private static void assertGone(HostNetwork net) {
        String namespaces = ip("netns", "list");
        for (NetHost h : net.hosts()) {
            assertThat(namespaces).doesNotContain(h.namespace());
            assertThat(Path.of("/sys/class/net", h.bridgePort())).doesNotExist();
        }
        assertThat(Path.of("/sys/class/net", net.bridge())).doesNotExist();
        assertThat(ip("-o", "-4", "addr", "show")).doesNotContain(net.bridgeAddress() + "/");
        assertThat(Files.exists(Path.of("/run/netns", net.hosts().get(0).namespace()))).isFalse();
    }

    private static List<Long> pidsIn(String namespace) {
        return ip("netns", "pids", namespace).lines().map(String::strip).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList();
    }

    @Test
    void aLinkJoinsTwoHostsWhereTheMachineHasNoPath() {
        try (HostNetwork net = HostNetwork.create("link", List.of("hub", "a", "b"))) {
            NetLink toA = net.link(net.host("hub"), net.host("a"));
            NetLink toB = net.link(net.host("hub"), net.host("b"));
            String octet = net.subnet().split("\\.")[2];
            assertThat(List.of(toA.aAddress(), toA.bAddress(), toB.aAddress(), toB.bAddress()))
                    .containsExactly("198.19." + octet + ".1", "198.19." + octet + ".2", "198.19." + octet + ".5",
                            "198.19." + octet + ".6");
            assertThat(List.of(toA.aIface(), toA.bIface(), toB.aIface(), toB.bIface()))
                    .containsExactly("eth1", "eth1", "eth2", "eth1");
            assertThat(net.run(net.host("hub"), List.of("ping", "-c", "1", "-W", "2", toB.bAddress()), T))
                    .contains("1 received");
            // a and b each reach the hub on their link, never each other (no route from a's /30 to b's)
            assertThatThrownBy(() -> net.run(net.host("a"), List.of("ping", "-c", "1", "-W", "1", toB.bAddress()), T))
                    .isInstanceOf(HostNetworkException.class);
            assertThat(ip("-o", "-4", "addr", "show")).doesNotContain("198.19." + octet + ".");
            assertThat(net.links()).containsExactly(toA, toB);
        }
    }

    private static String prefix(HostNetwork net) {
        return net.subnet().substring(0, net.subnet().lastIndexOf('.') + 1);
    }

    private static String ip(String... args) {
        return IpTool.ip(args);
    }
}
