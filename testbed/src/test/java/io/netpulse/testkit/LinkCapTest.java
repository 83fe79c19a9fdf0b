package io.netpulse.testkit;

import io.netpulse.testbed.netns.NetHost;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("root")
class LinkCapTest {
    @RegisterExtension
    static final TestHosts HOSTS = new TestHosts();

    private static final Pattern DROPPED = Pattern.compile("dropped (\\d+)");

    @Test
    void aCapIntoTheSutLetsThroughItsRateAndDropsTheRestUntilClosed() throws Exception {
        NetHost peer = HOSTS.peer();
        NetHost sut = HOSTS.sut();
        try (LinkCap cap = LinkCap.into(HOSTS, sut, "8mbit")) {
            assertThat(cap.stats()).contains("tbf").contains("rate 8Mbit");
            Process server = HOSTS.network().start(sut, List.of("iperf3", "-s", "-1", "-p", "5301"));
            try {
                HOSTS.awaitListening(sut, 5301);
                Process client = HOSTS.network().start(peer, List.of("iperf3", "-c", sut.address(), "-u", "-b", "0M",
                        "-l", "64", "-t", "4", "-p", "5301"));
                Thread.sleep(1_500);
                long t0 = System.nanoTime();
                long before = rxPackets(sut);
                Thread.sleep(2_000);
                long received = rxPackets(sut) - before;
                double seconds = (System.nanoTime() - t0) / 1e9;
                assertThat(client.waitFor()).isZero();
                // 64-byte UDP is 106 bytes on the link: 8 Mbit/s is 9,434 packets/s; at most that plus one burst
                // (32 kB) whatever the machine's load: the cap, not the senders, set the rate
                assertThat(received / seconds).as("packets/s into the SUT through the cap")
                        .isLessThan(9_434 * 1.03 + 32_768 / 106.0);
                Matcher dropped = DROPPED.matcher(cap.stats());
                assertThat(dropped.find()).isTrue();
                assertThat(Long.parseLong(dropped.group(1))).as("packets the cap dropped: the senders offered more")
                        .isPositive();
            } finally {
                HOSTS.network().stop(server);
            }
        }
        assertThat(tcQdiscRoot(sut.bridgePort())).doesNotContain("tbf");
    }

    @Test
    void aCapOutOfAHostSitsOnItsOwnInterface() {
        NetHost sut = HOSTS.sut();
        try (LinkCap cap = LinkCap.outOf(HOSTS, sut, "40mbit")) {
            assertThat(HOSTS.exec(sut, "tc", "qdisc", "show", "dev", sut.iface())).contains("tbf").contains("40Mbit");
            assertThat(cap.describe()).contains("sut").contains("40mbit");
        }
        assertThat(HOSTS.exec(sut, "tc", "qdisc", "show", "dev", sut.iface())).doesNotContain("tbf");
    }

    @Test
    void aRateTcWouldMisreadIsRefused() {
        assertThatThrownBy(() -> LinkCap.into(HOSTS, HOSTS.sut(), "40"))
                .hasMessageContaining("kbit, mbit or gbit").hasMessageContaining("'40'");
    }

    private static long rxPackets(NetHost host) {
        return Long.parseLong(HOSTS.exec(host, "cat", "/sys/class/net/" + host.iface() + "/statistics/rx_packets")
                .strip());
    }

    private static String tcQdiscRoot(String device) throws Exception {
        Process p = new ProcessBuilder("tc", "qdisc", "show", "dev", device).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
