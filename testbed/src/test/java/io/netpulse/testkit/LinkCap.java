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

    private static final Pattern SIZE = Pattern.compile("\\d+(kb|mb)");

    private final HostNetwork network;
    private final NetHost inside; // null: the link is in the root namespace
    private final String device;
    private final String rate;
    /** A burst credit, as {@code burst B peakrate P mtu 1600}; empty: none (a 32-kB bucket). */
    private final List<String> credit;

    private LinkCap(HostNetwork network, NetHost inside, String device, String rate, List<String> credit) {
        this.network = network;
        this.inside = inside;
        this.device = device;
        this.rate = rate;
        this.credit = credit;
    }

    /**
     * Caps what {@code host} receives: the qdisc on the root namespace's end of its veth pair, whose egress is the
     * host's ingress (an RX test's traffic, from any other host across the bridge).
     */
    public static LinkCap into(TestHosts hosts, NetHost host, String rate) {
        return new LinkCap(hosts.network(), null, host.bridgePort(), checked(rate), List.of()).apply();
    }

    /**
     * Caps what {@code host} sends at {@code rate} after a burst credit, as burstable cloud instance types sell it: a
     * bucket of {@code burst} bytes (e.g. {@code 60mb}) that traffic above the rate drains, at most at
     * {@code peakrate}. A sender offering more than the peak gets the peak for burst / (peak - rate) seconds, then
     * the rate: {@code 8mbit}, {@code 24mbit} and {@code 60mb} give 30 s at 24 Mbit/s.
     *
     * <p>On the sender's own interface, not the receiver's bridge port: there its sockets are held back by the full
     * qdisc and the flood is not dropped. Into the receiver, a flood offering 20 times the rate (64-byte UDP after the
     * credit) had the qdisc drop 95 % of whatever went to it, the launcher's SSH segments too: the SUT's session
     * stalled in retransmission backoff, its keepalives went unanswered, and its sar stream was cut 20 s after the
     * credit ran out (the repetition then failed: its sampler ended before the window did).
     */
    public static LinkCap outOfWithCredit(TestHosts hosts, NetHost host, String rate, String peakrate, String burst) {
        if (!SIZE.matcher(burst).matches()) {
            throw new IllegalArgumentException("tbf burst must be a number and kb or mb, got '" + burst + "'");
        }
        return new LinkCap(hosts.network(), host, host.iface(), checked(rate),
            List.of("burst", burst, "peakrate", checked(peakrate), "mtu", "1600")).apply();
    }

    /** Caps what {@code host} sends: the qdisc on its own interface (a TX test's traffic). */
    public static LinkCap outOf(TestHosts hosts, NetHost host, String rate) {
        return new LinkCap(hosts.network(), host, host.iface(), checked(rate), List.of()).apply();
    }

    /**
     * Caps what the SUT and the peer send, both at {@code rate}, as one cap: for tests that check what a run does, not
     * what it measures. An uncapped flood between namespace hosts keeps a core busy for as long as it runs (a 64-byte
     * UDP sender, a TCP stream over veth); through the cap a sender waits on its full queue instead, and the tests beside
     * it keep the cores (CI's default phase is CPU-bound: docs/testing.md).
     */
    public static Both sendersOf(TestHosts hosts, String rate) {
        LinkCap sut = outOf(hosts, hosts.sut(), rate);
        try {
            return new Both(sut, outOf(hosts, hosts.peer(), rate));
        } catch (RuntimeException e) {
            sut.close();
            throw e;
        }
    }

    /** Two caps removed together. */
    public record Both(LinkCap first, LinkCap second) implements AutoCloseable {
        @Override
        public void close() {
            try {
                first.close();
            } finally {
                second.close();
            }
        }
    }

    private static String checked(String rate) {
        if (!RATE.matcher(rate).matches()) {
            throw new IllegalArgumentException("tbf rate must be a number and kbit, mbit or gbit, got '" + rate + "'");
        }
        return rate;
    }

    private LinkCap apply() {
        List<String> args = new ArrayList<>(List.of("qdisc", "replace", "dev", device, "root", "tbf", "rate", rate));
        args.addAll(credit.isEmpty() ? List.of("burst", "32kb") : credit);
        args.addAll(List.of("latency", "50ms"));
        tc(args.toArray(String[]::new));
        return this;
    }

    /** e.g. {@code tbf 8Mbit into sut (npXX-1-v2)}: for test output. */
    public String describe() {
        return "tbf " + rate + (credit.isEmpty() ? "" : " " + String.join(" ", credit))
            + (inside == null ? " on root-side " : " on " + inside.name() + "'s ") + device;
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
