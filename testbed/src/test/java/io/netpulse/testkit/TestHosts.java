package io.netpulse.testkit;

import io.netpulse.testbed.DirectoryTrees;
import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testbed.netns.NetLink;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * JUnit 5 extension: two test hosts, {@code peer} (.1) and {@code sut} (.2), and any extra hosts named (.3, …), each a
 * network namespace running Debian's OpenSSH server on its address, port 22, with a generated host key. A generated
 * client key ({@link #identity()}) is authorised for root and {@link #knownHosts()} lists every host's key by address
 * ({@link #sshAddress}). {@link #behindBastion()} puts peer's and sut's SSH behind a third host, as in a cloud.
 * <p>
 * Register as a static field ({@code @RegisterExtension static final TestHosts HOSTS = new TestHosts();}) for one
 * pair per class, or as an instance field for one pair per test. Without root, tests are skipped (assumption).
 * Can also be driven directly: {@link #start()} and {@link #close()}.
 */
public final class TestHosts implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback,
        AutoCloseable {
    public static final String NEEDS_ROOT = "needs root to create network namespaces: run as root or with sudo";
    public static final int SSH_PORT = 22;
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Path PRIVSEP_DIR = Path.of("/run/sshd");
    private static final Duration SSHD_READY_TIMEOUT = Duration.ofSeconds(10);

    /** Hosts past peer and sut, addressed .3, .4, … in order (e.g. a second client host). */
    private final List<String> extraHosts;
    /** Set by {@link #behindBastion()}: peer and sut take SSH only on links to this host. */
    private final String bastion;
    /** Host name → the address its sshd listens on. */
    private final java.util.Map<String, String> sshAddresses = new java.util.LinkedHashMap<>();
    private HostNetwork network;
    private Path workDir;
    private Path identity;
    private Path knownHosts;
    private String ownerContextId; // the context that started us is the one that stops us (@Nested inherits)

    /** The two hosts peer (.1) and sut (.2). */
    public TestHosts() {
        this(new String[0]);
    }

    /** peer (.1), sut (.2) and {@code extraHosts} (.3, .4, …), each with its own sshd, all on one bridge. */
    public TestHosts(String... extraHosts) {
        this(null, List.of(extraHosts));
    }

    private TestHosts(String bastion, List<String> extraHosts) {
        this.extraHosts = List.copyOf(extraHosts);
        this.bastion = bastion;
    }

    /**
     * peer (.1), sut (.2) and {@code bastion} (.3) on the bridge, the hosts' test addresses; the bastion's sshd listens
     * on its bridge address, but peer's and sut's only on a point-to-point link to the bastion ({@link HostNetwork#link},
     * 198.19.X.0/24), which neither the machine nor the other host can reach: SSH to them works only through the bastion
     * (a cloud's private subnet). {@link #sshAddress} gives each host's.
     */
    public static TestHosts behindBastion() {
        return new TestHosts("bastion", List.of("bastion"));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        startFor(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startFor(context); // no-op when a static registration already started in beforeAll
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stopFor(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stopFor(context);
    }

    private void startFor(ExtensionContext context) {
        if (network == null) {
            start();
            ownerContextId = context.getUniqueId();
        }
    }

    private void stopFor(ExtensionContext context) {
        if (context.getUniqueId().equals(ownerContextId)) {
            close();
        }
    }

    /** Builds the hosts and starts sshd in each; skips (JUnit assumption) when not root. */
    public synchronized void start() {
        Assumptions.assumeTrue(HostNetwork.supported(), NEEDS_ROOT);
        if (network != null) {
            return;
        }
        if (!Files.isExecutable(SSHD)) {
            throw new IllegalStateException("TestHosts needs Debian's OpenSSH server at " + SSHD
                    + ": apt-get install openssh-server");
        }
        try {
            workDir = Files.createTempDirectory("netpulse-testhosts");
            identity = workDir.resolve("id_ed25519");
            keygen(identity, "netpulse-testhosts-client");
            Path authorizedKeys = workDir.resolve("authorized_keys");
            Files.copy(workDir.resolve("id_ed25519.pub"), authorizedKeys);
            // sshd refuses to start without its privilege separation directory; Debian creates it at boot only
            if (!Files.isDirectory(PRIVSEP_DIR)) {
                Files.createDirectories(PRIVSEP_DIR, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwxr-xr-x")));
            }
            List<String> names = new ArrayList<>(List.of("peer", "sut"));
            names.addAll(extraHosts);
            network = HostNetwork.create("testhosts", names);
            for (NetHost host : network.hosts()) {
                sshAddresses.put(host.name(), host.address());
            }
            if (bastion != null) {
                for (String behind : List.of("peer", "sut")) {
                    NetLink link = network.link(network.host(bastion), network.host(behind));
                    sshAddresses.put(behind, link.bAddress());
                }
            }
            List<String> knownHostLines = new ArrayList<>();
            List<Process> sshds = new ArrayList<>();
            for (NetHost host : network.hosts()) {
                Path hostDir = Files.createDirectory(workDir.resolve(host.name()));
                Path hostKey = hostDir.resolve("ssh_host_ed25519_key");
                keygen(hostKey, "netpulse-testhosts-" + host.name());
                String[] pub = Files.readString(hostDir.resolve("ssh_host_ed25519_key.pub")).trim().split("\\s+");
                knownHostLines.add(sshAddress(host) + " " + pub[0] + " " + pub[1]);
                Path config = hostDir.resolve("sshd_config");
                Files.writeString(config, sshdConfig(sshAddress(host), hostKey, authorizedKeys));
                sshds.add(network.start(host, withoutRootsBashrc(SSHD.toString(), "-D", "-e", "-f",
                        config.toString()), sshdLog(host)));
            }
            knownHosts = workDir.resolve("known_hosts");
            Files.write(knownHosts, knownHostLines);
            for (int i = 0; i < sshds.size(); i++) {
                awaitSshd(network.hosts().get(i), sshds.get(i));
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e instanceof RuntimeException re ? re
                    : new IllegalStateException("cannot set up test hosts: " + e.getMessage(), e);
        }
    }

    /**
     * The command run with root's {@code ~/.bashrc} masked by an empty file in its own mount namespace ({@code ip netns
     * exec} gives each command one, slave to the host's, so nothing leaks out). Bash sources that file for every SSH
     * exec channel; on these machines it runs {@code pyenv init}: ~0.1 CPU-s per remote command, thousands of them in
     * CI, and concurrent shells racing on pyenv's rehash lock print to the commands' stderr. A test host stands for a
     * freshly installed server, whose root has no such start-up file.
     */
    private static List<String> withoutRootsBashrc(String... command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c",
                "rc=~root/.bashrc; if [ -f \"$rc\" ]; then mount --bind /dev/null \"$rc\" || exit 97; fi; exec \"$@\"",
                "sh"));
        wrapped.addAll(List.of(command));
        return wrapped;
    }

    private static String sshdConfig(String address, Path hostKey, Path authorizedKeys) {
        return String.join("\n",
                "ListenAddress " + address + ":" + SSH_PORT,
                "HostKey " + hostKey,
                "AuthorizedKeysFile " + authorizedKeys,
                "PidFile none", // never touch the system sshd's /run/sshd.pid
                "PermitRootLogin prohibit-password",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "UsePAM no",
                "StrictModes no", // the keys live under /tmp, which StrictModes would reject
                "MaxSessions 256", // one SSH connection carries many exec channels in the launcher
                "MaxStartups 64:30:256",
                "PrintMotd no",
                "Subsystem sftp internal-sftp",
                "LogLevel VERBOSE",
                "");
    }

    private void awaitSshd(NetHost host, Process sshd) throws IOException {
        long deadline = System.nanoTime() + SSHD_READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!sshd.isAlive()) {
                throw new IllegalStateException("sshd in host " + host.name() + " exited " + sshd.exitValue()
                        + ": " + Files.readString(sshdLog(host)).strip());
            }
            if (!sshAddress(host).equals(host.address())) {
                // unreachable from here by design: read the host's socket table instead
                if (listening(host, SSH_PORT)) {
                    return;
                }
                sleep(50);
                continue;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host.address(), SSH_PORT), 200);
                return;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        throw new IllegalStateException("sshd in host " + host.name() + " not listening on " + host.address() + ":"
                + SSH_PORT + " after " + SSHD_READY_TIMEOUT.toSeconds() + " s; log " + sshdLog(host));
    }

    private static void keygen(Path key, String comment) throws IOException {
        List<String> command = List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f",
                key.toString());
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("ssh-keygen failed for " + key + ": " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in ssh-keygen", e);
        }
    }

    /** Stops the sshds and every other process in the hosts, deletes the network and generated files. */
    @Override
    public synchronized void close() {
        try {
            if (network != null) {
                network.close();
            }
        } finally {
            network = null;
            sshAddresses.clear();
            ownerContextId = null;
            DirectoryTrees.deleteQuietly(workDir);
            workDir = null;
        }
    }

    public NetHost peer() {
        return network().host("peer");
    }

    public NetHost sut() {
        return network().host("sut");
    }

    /** A host by name: peer, sut or one of the extra hosts. */
    public NetHost host(String name) {
        return network().host(name);
    }

    public HostNetwork network() {
        if (network == null) {
            throw new IllegalStateException("test hosts are not started (register TestHosts with @RegisterExtension)");
        }
        return network;
    }

    /** Private key (OpenSSH ed25519, no passphrase) authorised for {@link #user()} on both hosts. */
    public Path identity() {
        network();
        return identity;
    }

    /** known_hosts listing both hosts' ed25519 keys by address. */
    public Path knownHosts() {
        network();
        return knownHosts;
    }

    /** The address the host's sshd listens on: its bridge address, or behind a bastion its link's. */
    public String sshAddress(NetHost host) {
        network();
        return sshAddresses.get(host.name());
    }

    /** The bastion of {@link #behindBastion()}. */
    public NetHost bastion() {
        if (bastion == null) {
            throw new IllegalStateException("these test hosts have no bastion (use TestHosts.behindBastion())");
        }
        return network().host(bastion);
    }

    public String user() {
        return "root";
    }

    /** sshd's own log (-e) for this host: the first place to look when an SSH test fails. */
    public Path sshdLog(NetHost host) {
        return workDir.resolve(host.name()).resolve("sshd.log");
    }

    /**
     * Waits until a process of {@code host} named {@code executable} runs (a tool the launcher starts there), at most
     * {@code timeout}: a fault test's moment to strike comes after it.
     */
    public void awaitRunning(NetHost host, String executable, java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && running(host, executable).isEmpty()) {
            Thread.sleep(100);
        }
    }

    /**
     * Kills (SIGKILL) the processes of {@code host} named {@code executable} (as ps shows it, e.g. {@code sar}): a
     * tool a launcher started there, killed as a crash or the OOM killer would. Only processes in this host's own
     * network namespace, which this class made (a launcher's batch starts its tools in sessions of their own, so they
     * are no longer sshd's descendants).
     *
     * @return the PIDs killed
     */
    public List<Long> kill(NetHost host, String executable) {
        List<Long> killed = new ArrayList<>();
        running(host, executable).forEach(p -> {
            if (p.destroyForcibly()) {
                killed.add(p.pid());
            }
        });
        return killed;
    }

    /**
     * Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the processes of {@code host} named {@code executable}:
     * STOP freezes a daemon as an overloaded host's would seem. Same processes as {@link #kill}.
     *
     * @return the PIDs signalled
     */
    public List<Long> signal(NetHost host, String executable, String signal) {
        List<Long> pids = running(host, executable).stream().map(ProcessHandle::pid).toList();
        for (long pid : pids) {
            try {
                Process p = new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).redirectErrorStream(true)
                        .start();
                p.getInputStream().readAllBytes();
                p.waitFor();
            } catch (IOException e) {
                throw new IllegalStateException("cannot signal " + pid + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return pids;
    }

    /** The processes of {@code host} (those in its network namespace) named {@code executable}. */
    public List<ProcessHandle> running(NetHost host, String executable) {
        network();
        // by the name ps shows (/proc/PID/comm): Debian's sar is /usr/bin/sar.sysstat behind an alternatives link
        return processesIn(host.namespace()).entrySet().stream().filter(e -> executable.equals(e.getValue()))
                .map(e -> ProcessHandle.of(e.getKey())).flatMap(java.util.Optional::stream).toList();
    }

    /** PID → name as ps shows it ({@code /proc/PID/comm}) of every process in network namespace {@code namespace}. */
    public static java.util.Map<Long, String> processesIn(String namespace) {
        String pids;
        try {
            Process p = new ProcessBuilder("ip", "netns", "pids", namespace).redirectErrorStream(true).start();
            pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the processes of " + namespace + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Map.of();
        }
        java.util.Map<Long, String> out = new java.util.LinkedHashMap<>();
        pids.lines().map(String::strip).filter(l -> l.matches("\\d+")).forEach(pid -> {
            String comm = comm(pid);
            if (comm != null) {
                out.put(Long.parseLong(pid), comm);
            }
        });
        return out;
    }

    private static String comm(String pid) {
        try {
            return Files.readString(Path.of("/proc", pid, "comm")).strip();
        } catch (IOException gone) {
            return null; // exited meanwhile
        }
    }

    /** Runs a command in the host (via ip netns exec, not SSH), 30 s at most; returns stdout. */
    public String exec(NetHost host, String... command) {
        return network().run(host, List.of(command), Duration.ofSeconds(30));
    }

    /**
     * Waits until a TCP socket in {@code host} listens on {@code port} (IPv4 or IPv6), at most 10 s. Read from the
     * host's socket table rather than by connecting (as for sshd): a probe connection would count as a client to a
     * traffic server, and end an {@code iperf3 -s -1}.
     */
    public void awaitListening(NetHost host, int port) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (listening(host, port)) {
                return;
            }
            sleep(50);
        }
        throw new AssertionError("nothing listens on port " + port + " in " + host.name() + " after 10 s");
    }

    private boolean listening(NetHost host, int port) {
        String hex = String.format(":%04X ", port);
        // state 0A = LISTEN in /proc/net/tcp{,6}
        return exec(host, "sh", "-c", "cat /proc/net/tcp /proc/net/tcp6 2>/dev/null; true").lines()
                .anyMatch(l -> l.contains(hex) && l.contains(" 0A "));
    }


    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
