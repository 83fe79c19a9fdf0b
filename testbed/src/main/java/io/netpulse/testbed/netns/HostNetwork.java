package io.netpulse.testbed.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Test hosts as Linux network namespaces. Each host gets a veth pair whose root end joins a bridge in
 * the root namespace; the bridge holds .254 of a free 198.18.X.0/24 and the hosts hold .1, .2, … so the JVM
 * reaches every host and host-to-host traffic crosses the bridge. Processes started in the hosts are tracked and
 * stopped by PID on {@link #close()}, which then deletes exactly the namespaces and links this instance created.
 */
public final class HostNetwork implements AutoCloseable {
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static boolean namesakesRemoved; // guarded by HostNetwork.class
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    private static final int MAX_HOSTS = 253; // .1 … .253; .254 is the bridge
    private static final Path IPV6_CONF = Path.of("/proc/sys/net/ipv6/conf");

    private final String label;
    private final String subnet;
    private final String bridgeAddress;
    private final String bridge;
    private final List<NetHost> hosts;
    private final Set<ProcessHandle> tracked = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    // what exists right now, so a half-built network is torn down exactly as far as it got
    private final Set<String> createdNamespaces = ConcurrentHashMap.newKeySet();
    private final Set<String> createdLinks = ConcurrentHashMap.newKeySet();
    /** Point-to-point links made so far; their veths live in the namespaces only and go with them. */
    private final Links links = new Links();

    /** Creates {@code hosts} hosts named h1 … hN. */
    public static HostNetwork create(String label, int hosts) {
        if (hosts < 1 || hosts > MAX_HOSTS) {
            throw new IllegalArgumentException("host count must be 1.." + MAX_HOSTS + ", got " + hosts);
        }
        return create(label, IntStream.rangeClosed(1, hosts).mapToObj(k -> "h" + k).toList());
    }

    /** Creates one host per name, addressed .1, .2, … in the order given. */
    public static HostNetwork create(String label, List<String> hostNames) {
        requireSupported();
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("label must not be blank");
        }
        if (hostNames.isEmpty() || hostNames.size() > MAX_HOSTS || new HashSet<>(hostNames).size() != hostNames.size()
                || hostNames.stream().anyMatch(n -> n == null || n.isBlank())) {
            throw new IllegalArgumentException("host names must be 1.." + MAX_HOSTS + " distinct non-blank names, got "
                    + hostNames);
        }
        return new HostNetwork(label, hostNames);
    }

    /** Root with {@code ip} available: what creating namespaces needs. */
    public static boolean supported() {
        return isRoot() && IpTool.ipBinary().isPresent();
    }

    private HostNetwork(String label, List<String> hostNames) {
        this.label = label;
        long pid = ProcessHandle.current().pid();
        removeEarlierNamesakes(pid);
        int n = INSTANCES.incrementAndGet();
        this.bridge = linkName(pid, n, "b");
        requireLinkName(linkName(pid, n, "v" + Integer.toString(hostNames.size(), 36)));
        this.shutdownHook = new Thread(this::closeQuietly, "netpulse-hostnetwork-" + label + "-cleanup");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            int octet = SubnetAllocator.allocate(x -> {
                IpTool.ip("link", "add", bridge, "type", "bridge");
                createdLinks.add(bridge);
                IpTool.ip("addr", "add", prefix(x) + "254/24", "dev", bridge);
                return x;
            });
            this.subnet = prefix(octet) + "0/24";
            this.bridgeAddress = prefix(octet) + "254";
            // Hosts bridged with br_netfilter on would cross the host firewall (Docker sets FORWARD to DROP);
            // this turns that off for this bridge only.
            IpTool.ip("link", "set", bridge, "type", "bridge", "nf_call_iptables", "0", "nf_call_ip6tables", "0",
                    "nf_call_arptables", "0");
            disableIpv6(bridge);
            IpTool.ip("link", "set", bridge, "up");
            List<NetHost> built = new ArrayList<>();
            for (int k = 1; k <= hostNames.size(); k++) {
                NetHost host = new NetHost(hostNames.get(k - 1), namespaceName(pid, n, k), prefix(octet) + k, "eth0",
                        linkName(pid, n, "v" + Integer.toString(k, 36)));
                addHost(host);
                built.add(host);
            }
            this.hosts = Collections.unmodifiableList(built);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    private void addHost(NetHost host) {
        IpTool.ip("netns", "add", host.namespace());
        createdNamespaces.add(host.namespace());
        if (Files.isDirectory(IPV6_CONF)) {
            // set before the veth arrives so it inherits "default": no link-local address, no IPv6 chatter
            IpTool.run(List.of(IpTool.ipBinary().orElseThrow().toString(), "netns", "exec", host.namespace(),
                    sysctlBinary(), "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1"), Duration.ofSeconds(10));
        }
        // The inside end is created directly in the namespace, so its name ("eth0") never clashes in the root.
        IpTool.ip("link", "add", host.bridgePort(), "type", "veth", "peer", "name", host.iface(), "netns",
                host.namespace());
        createdLinks.add(host.bridgePort());
        disableIpv6(host.bridgePort());
        IpTool.ip("link", "set", host.bridgePort(), "master", bridge, "up");
        IpTool.ip("-n", host.namespace(), "link", "set", "lo", "up");
        IpTool.ip("-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", host.iface());
        IpTool.ip("-n", host.namespace(), "link", "set", host.iface(), "up");
    }

    public String label() {
        return label;
    }

    public List<NetHost> hosts() {
        return hosts;
    }

    /** The host with this logical name. */
    public NetHost host(String name) {
        return hosts.stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("no host '" + name + "' in network " + label + "; hosts: "
                        + hosts.stream().map(NetHost::name).toList()));
    }

    /** e.g. {@code 198.18.42.0/24}. */
    public String subnet() {
        return subnet;
    }

    /** The root namespace's address on the hosts' subnet (.254). */
    public String bridgeAddress() {
        return bridgeAddress;
    }

    public String bridge() {
        return bridge;
    }

    /**
     * Links two hosts directly, outside the bridge: see {@link Links#add}. The root namespace gets no end of the pair,
     * so the machine has no path to the link's addresses (a cloud's private subnet).
     */
    public NetLink link(NetHost a, NetHost b) {
        requireOpen();
        requireMine(a);
        requireMine(b);
        return links.add(a, b, "198.19." + subnet.split("\\.")[2] + ".");
    }

    /** The links made with {@link #link}, in order. */
    public List<NetLink> links() {
        return links.all();
    }

    /** Starts {@code command} in the host (no shell), stdin from /dev/null, stdout/stderr as pipes; tracked. */
    public Process start(NetHost host, List<String> command) {
        return start(host, command, null);
    }

    /** As {@link #start(NetHost, List)} with stdout and stderr appended to {@code log} (null: pipes). */
    public Process start(NetHost host, List<String> command, Path log) {
        requireOpen();
        requireMine(host);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("empty command for host " + host.name());
        }
        List<String> full = new ArrayList<>(List.of(IpTool.ipBinary().orElseThrow().toString(), "netns", "exec",
                host.namespace()));
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        if (log != null) {
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectErrorStream(true);
        }
        try {
            // ip netns exec execs the command in place, so this PID is the command's own
            Process process = pb.start();
            tracked.add(process.toHandle());
            process.onExit().thenRun(() -> tracked.remove(process.toHandle()));
            return process;
        } catch (IOException e) {
            throw new HostNetworkException("cannot start '" + String.join(" ", command) + "' in host " + host.name()
                    + " (" + host.namespace() + "): " + e.getMessage(), e);
        }
    }

    /** Runs {@code command} in the host to completion; returns stdout, throws with stderr on non-zero exit. */
    public String run(NetHost host, List<String> command, Duration timeout) {
        requireOpen();
        requireMine(host);
        List<String> full = new ArrayList<>(List.of(IpTool.ipBinary().orElseThrow().toString(), "netns", "exec",
                host.namespace()));
        full.addAll(command);
        try {
            return IpTool.run(full, timeout);
        } catch (HostNetworkException e) {
            throw new HostNetworkException("in host " + host.name() + ": " + e.getMessage(), e);
        }
    }

    /** Stops the process and its descendants (SIGTERM, SIGKILL after a short grace). */
    public void stop(Process process) {
        ProcessTree.stop(List.of(process.toHandle()), STOP_GRACE);
        tracked.remove(process.toHandle());
    }

    /** PIDs of the processes started here and still running (their descendants not included). */
    public Set<Long> trackedPids() {
        Set<Long> pids = new HashSet<>();
        tracked.forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /** Stops every process (tracked, their descendants, anything left inside the namespaces), then deletes what
     * this instance created. Idempotent; also run by a shutdown hook on Ctrl-C. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // we are the hook, or the JVM is exiting anyway
        }
        List<String> failures = new ArrayList<>();
        ProcessTree.stop(new ArrayList<>(tracked), STOP_GRACE);
        tracked.clear();
        stopLeftoversInNamespaces(failures);
        for (String ns : new ArrayList<>(createdNamespaces)) {
            attempt(failures, () -> IpTool.ip("netns", "del", ns));
            createdNamespaces.remove(ns);
        }
        // Deleting a namespace deletes its veth end and so the pair, but asynchronously (kernel workqueue): the root
        // end may vanish between our check and our delete, which is success too.
        for (String link : new ArrayList<>(createdLinks)) {
            Path sysfs = Path.of("/sys/class/net", link);
            if (Files.exists(sysfs)) {
                attempt(failures, () -> {
                    try {
                        IpTool.ip("link", "del", link);
                    } catch (HostNetworkException e) {
                        if (Files.exists(sysfs)) {
                            throw e;
                        }
                    }
                });
            }
            createdLinks.remove(link);
        }
        if (!failures.isEmpty()) {
            throw new HostNetworkException("cleanup of host network " + label + " incomplete: "
                    + String.join("; ", failures));
        }
    }

    /** Processes that daemonised (re-parented away from our tracked ones) still live in our namespaces. */
    private void stopLeftoversInNamespaces(List<String> failures) {
        List<ProcessHandle> leftovers = new ArrayList<>();
        for (String ns : createdNamespaces) {
            attempt(failures, () -> IpTool.ip("netns", "pids", ns).lines().map(String::strip)
                    .filter(s -> s.matches("\\d+"))
                    .forEach(pid -> ProcessHandle.of(Long.parseLong(pid)).ifPresent(leftovers::add)));
        }
        ProcessTree.stop(leftovers, STOP_GRACE);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("netpulse: " + e.getMessage());
        }
    }

    private static void attempt(List<String> failures, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            failures.add(e.getMessage());
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("host network " + label + " is closed");
        }
    }

    private void requireMine(NetHost host) {
        if (!hosts.contains(host)) {
            throw new IllegalArgumentException("host " + host.name() + " (" + host.namespace()
                    + ") is not part of network " + label);
        }
    }

    private static void requireSupported() {
        if (!isRoot()) {
            throw new HostNetworkException("creating network namespaces needs root: run as root or with sudo");
        }
        if (IpTool.ipBinary().isEmpty()) {
            throw new HostNetworkException("the 'ip' command (iproute2) is not installed: install iproute2");
        }
    }

    /** Host {@code k}'s namespace in this process's network {@code n}: {@code np-PID-N-hK}. */
    static String namespaceName(long pid, int n, int k) {
        return "np-" + pid + "-" + n + "-h" + k;
    }

    /**
     * A root-namespace link of network {@code n}: {@code np<pid>-<n>-} + {@code b} (bridge) or {@code vK} (veth).
     * Names are limited to 15 chars (IFNAMSIZ - 1), so the numbers are in base 36; the dashes, outside base 36,
     * let {@link StaleHostNetworks} read the owner back one way only.
     */
    static String linkName(long pid, int n, String suffix) {
        return "np" + Long.toString(pid, 36) + "-" + Integer.toString(n, 36) + "-" + suffix;
    }

    /**
     * Before this JVM's first network: what an earlier process with the same PID left (killed before its shutdown
     * hook ran) has the names this JVM is about to use, and would fail its {@code ip netns add} with "File exists".
     */
    private static synchronized void removeEarlierNamesakes(long pid) {
        if (namesakesRemoved) {
            return;
        }
        for (StaleHostNetworks.Leftover left : StaleHostNetworks.namedFor(pid)) {
            try {
                StaleHostNetworks.remove(left);
            } catch (HostNetworkException e) {
                throw new HostNetworkException("an earlier process with this PID (" + pid + ") left host networks "
                        + "under the names this one uses: " + e.getMessage(), e);
            }
        }
        namesakesRemoved = true;
    }

    private static void requireLinkName(String name) {
        if (name.length() > 15) {
            throw new HostNetworkException("interface name " + name + " exceeds 15 characters: too many networks "
                    + "in one JVM");
        }
    }

    /**
     * Hosts talk IPv4 in 198.18.0.0/15 only: IPv6 would add link-local addresses and send router solicitations
     * and MLD reports to multicast addresses, which both breaks that rule and perturbs byte counters in tests.
     */
    private static void disableIpv6(String link) {
        Path knob = IPV6_CONF.resolve(link).resolve("disable_ipv6");
        if (Files.exists(knob)) {
            try {
                Files.writeString(knob, "1");
            } catch (IOException e) {
                throw new HostNetworkException("cannot disable IPv6 on " + link + ": " + e.getMessage(), e);
            }
        }
    }

    private static String sysctlBinary() {
        return Files.isExecutable(Path.of("/usr/sbin/sysctl")) ? "/usr/sbin/sysctl"
                : Files.isExecutable(Path.of("/sbin/sysctl")) ? "/sbin/sysctl" : "sysctl";
    }

    private static String prefix(int octet) {
        return "198.18." + octet + ".";
    }

    private static boolean isRoot() {
        try {
            // "Uid:\treal\teffective\t…": the effective uid decides what the kernel allows
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    @Override
    public String toString() {
        return "HostNetwork[" + label + " " + subnet + " bridge " + bridge + " hosts " + hosts + "]";
    }
}
