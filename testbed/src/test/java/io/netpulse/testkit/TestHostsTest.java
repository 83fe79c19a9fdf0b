package io.netpulse.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchChangedHostKeyException;
import com.jcraft.jsch.JSchUnknownHostKeyException;
import com.jcraft.jsch.Session;
import io.netpulse.testbed.netns.NetHost;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("root")
class TestHostsTest {
    @RegisterExtension
    static final TestHosts HOSTS = new TestHosts();

    @Test
    void sshWithStrictHostKeyCheckingReachesEachHostInItsOwnNamespace() throws Exception {
        for (NetHost host : List.of(HOSTS.peer(), HOSTS.sut())) {
            String addrs = ssh(host, HOSTS.knownHosts(), "ip -o -4 addr");
            NetHost other = host.equals(HOSTS.peer()) ? HOSTS.sut() : HOSTS.peer();
            assertThat(addrs).contains("inet " + host.address() + "/24")
                    .doesNotContain("inet " + other.address() + "/")
                    .doesNotContain("inet " + HOSTS.network().bridgeAddress() + "/");
        }
    }

    @Test
    void sshSessionsRunNoStartUpFileAndTheMachinesOwnStaysUntouched() throws Exception {
        Path rc = Path.of(System.getProperty("user.home"), ".bashrc");
        String before = Files.exists(rc) ? Files.readString(rc) : null;
        assertThat(ssh(HOSTS.sut(), HOSTS.knownHosts(), "cat ~root/.bashrc 2>/dev/null; echo end")).isEqualTo("end\n");
        assertThat(Files.exists(rc) ? Files.readString(rc) : null).isEqualTo(before);
    }

    @Test
    void aWrongKnownHostsKeyMakesTheConnectionFail(@TempDir Path tmp) throws Exception {
        // sut's real key listed under peer's address: the key peer presents no longer matches
        List<String> lines = Files.readAllLines(HOSTS.knownHosts());
        String sutKey = lines.stream().filter(l -> l.startsWith(HOSTS.sut().address() + " ")).findFirst()
                .orElseThrow().split(" ", 2)[1];
        Path wrong = tmp.resolve("known_hosts");
        Files.writeString(wrong, HOSTS.peer().address() + " " + sutKey + "\n");
        assertThatThrownBy(() -> ssh(HOSTS.peer(), wrong, "true"))
                .isInstanceOf(JSchChangedHostKeyException.class);

        Path empty = Files.writeString(tmp.resolve("empty_known_hosts"), "");
        assertThatThrownBy(() -> ssh(HOSTS.sut(), empty, "true"))
                .isInstanceOf(JSchUnknownHostKeyException.class);
    }

    @Test
    void iperf3TrafficFromPeerToSutCrossesTheBridgeAndShowsInSutRxBytes() throws Exception {
        NetHost peer = HOSTS.peer();
        NetHost sut = HOSTS.sut();
        long rxBefore = rxBytes(HOSTS.exec(sut, "cat", "/proc/net/dev"), sut.iface());
        long bridgeTxBefore = Long.parseLong(
                Files.readString(Path.of("/sys/class/net", sut.bridgePort(), "statistics/tx_bytes")).trim());

        Process server = HOSTS.network().start(sut, List.of("iperf3", "-s", "-1", "-B", sut.address()));
        HOSTS.awaitListening(sut, 5201);
        String json = HOSTS.network().run(peer, List.of("iperf3", "-c", sut.address(), "-t", "2", "-J"),
                Duration.ofSeconds(20));
        server.waitFor();

        JsonNode end = new ObjectMapper().readTree(json).path("end");
        long received = end.path("sum_received").path("bytes").asLong();
        long rxDelta = rxBytes(HOSTS.exec(sut, "cat", "/proc/net/dev"), sut.iface()) - rxBefore;
        long bridgeTxDelta = Long.parseLong(
                Files.readString(Path.of("/sys/class/net", sut.bridgePort(), "statistics/tx_bytes")).trim())
                - bridgeTxBefore;
        assertThat(received).as("iperf3 bytes received").isGreaterThan(1_000_000L);
        // headers make the wire count larger than the payload, but not by more than a few percent on TCP
        assertThat(rxDelta).as("sut rx bytes").isGreaterThanOrEqualTo(received).isLessThan(received * 11 / 10);
        // the root end of sut's veth sent (towards sut) what sut received: it came through the bridge
        assertThat(bridgeTxDelta).as("bridge port tx bytes").isGreaterThanOrEqualTo(received);
        System.out.printf("iperf3 2 s peer->sut: %d bytes, %.2f Gbit/s; sut rx %d bytes%n", received,
                end.path("sum_received").path("bits_per_second").asDouble() / 1e9, rxDelta);
    }

    static long rxBytes(String procNetDev, String iface) {
        return procNetDev.lines().map(String::strip).filter(l -> l.startsWith(iface + ":"))
                .map(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).strip().split("\\s+")[0]))
                .findFirst().orElseThrow(() -> new AssertionError("no " + iface + " in /proc/net/dev"));
    }

    /** Runs a command over SSH as root with StrictHostKeyChecking=yes; returns stdout, fails on non-zero exit. */
    static String ssh(NetHost host, Path knownHosts, String command) throws Exception {
        JSch jsch = new JSch();
        jsch.addIdentity(HOSTS.identity().toString());
        jsch.setKnownHosts(knownHosts.toString());
        Session session = jsch.getSession(HOSTS.user(), host.address(), TestHosts.SSH_PORT);
        session.setConfig("StrictHostKeyChecking", "yes");
        try {
            session.connect(5_000);
            ChannelExec channel = (ChannelExec) session.openChannel("exec");
            channel.setCommand(command);
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            channel.setErrStream(err);
            InputStream in = channel.getInputStream();
            channel.connect(5_000);
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            while (!channel.isClosed()) {
                Thread.sleep(10);
            }
            assertThat(channel.getExitStatus()).as("exit of '%s' on %s, stderr: %s", command, host.name(), err)
                    .isZero();
            channel.disconnect();
            return out;
        } finally {
            session.disconnect();
        }
    }
}
