package io.netpulse.testkit;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.NetHost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A cloud NIC's rate limit on one direction of a test host's link: {@code tc qdisc replace dev LINK root tbf rate R
 * burst 32kb latency 50ms}, removed on {@link #close()}. Between namespace hosts on two shared cores per-second rates
 * swing ±35 %; through the cap, with senders offering more than it lets through, every second carries the same
 * packets, so figures taken minutes apart can be compared (the fidelity test bed). tbf and htb exist on the test
 * kernels; netem, fq and matchall do not.
 */
public final class LinkCap implements AutoCloseable {
    private static final Pattern RATE = Pattern.compile("\\d+(kbit|mbit|gbit)");
    private static final Duration TC_TIMEOUT = Duration.ofSeconds(15);

    private final HostNetwork network;
    private final NetHost inside; // null: the link is in the root namespace
    private final String device;
    private final String rate;

    private LinkCap(HostNetwork network, NetHost inside, String device, String rate) {
        this.network = network;
        this.inside = inside;
        this.device = device;
        this.rate = rate;
    }

    /**
     * Caps what {@code host} receives: the qdisc on the root namespace's end of its veth pair, whose egress is the
     * host's ingress (an RX test's traffic, from any other host across the bridge).
     */
    public static LinkCap into(TestHosts hosts, NetHost host, String rate) {
        return new LinkCap(hosts.network(), null, host.bridgePort(), checked(rate)).apply();
    }

    /** Caps what {@code host} sends: the qdisc on its own interface (a TX test's traffic). */
    public static LinkCap outOf(TestHosts hosts, NetHost host, String rate) {
        return new LinkCap(hosts.network(), host, host.iface(), checked(rate)).apply();
    }

    private static String checked(String rate) {
        if (!RATE.matcher(rate).matches()) {
            throw new IllegalArgumentException("tbf rate must be a number and kbit, mbit or gbit, got '" + rate + "'");
        }
        return rate;
    }

    private LinkCap apply() {
        tc("qdisc", "replace", "dev", device, "root", "tbf", "rate", rate, "burst", "32kb", "latency", "50ms");
        return this;
    }

    /** e.g. {@code tbf 8Mbit into sut (npXX-1-v2)}: for test output. */
    public String describe() {
        return "tbf " + rate + (inside == null ? " on root-side " : " on " + inside.name() + "'s ") + device;
    }

    /** {@code tc -s qdisc show dev LINK}: what the qdisc sent, dropped and held back. */
    public String stats() {
        return tc("-s", "qdisc", "show", "dev", device).strip();
    }

    @Override
    public void close() {
        tc("qdisc", "del", "dev", device, "root");
    }

    private String tc(String... args) {
        List<String> command = new ArrayList<>(List.of("tc"));
        command.addAll(List.of(args));
        if (inside != null) {
            return network.run(inside, command, TC_TIMEOUT);
        }
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(TC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed: " + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in '" + String.join(" ", command) + "'", e);
        }
    }
}
