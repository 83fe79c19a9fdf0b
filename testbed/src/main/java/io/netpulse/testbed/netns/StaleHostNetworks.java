package io.netpulse.testbed.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Host networks whose creating process is gone: what a JVM killed with SIGKILL (or by the OOM killer) leaves, since
 * its shutdown hook never ran. A {@link HostNetwork} names its namespaces {@code np-PID-N-hK} and its root-namespace
 * links {@code np<PID base 36>-<N base 36>-} + {@code b} (bridge) or {@code vK} (veth), so the owner can be read off
 * the name. Only empty namespaces are ever removed: a process still running inside is the user's to stop.
 */
public final class StaleHostNetworks {
    private static final Path NETNS_DIR = Path.of("/run/netns");
    private static final Path SYS_NET = Path.of("/sys/class/net");
    private static final Pattern NAMESPACE = Pattern.compile("np-(\\d{1,10})-(\\d{1,6})-h\\d+");
    private static final Pattern LINK = Pattern.compile("np([0-9a-z]{1,7})-([0-9a-z]{1,6})-(?:b|v[0-9a-z]{1,4})");
    // a PID is reused only after its process ended; a start this long after the namespace's birth is another process
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(2);

    /** One HostNetwork instance's remains. {@code busy}: PIDs still running in its namespaces (nothing is removed). */
    public record Leftover(long ownerPid, int instance, List<String> namespaces, List<String> links, List<Long> busy) {
        public Leftover {
            namespaces = List.copyOf(namespaces);
            links = List.copyOf(links);
            busy = List.copyOf(busy);
        }

        /** e.g. {@code np-14874-8-h1, np-14874-8-h2, npbh6x8b}. */
        public String names() {
            return String.join(", ", Stream.concat(namespaces.stream(), links.stream()).toList());
        }
    }

    private StaleHostNetworks() {
    }

    /** Every leftover of a HostNetwork whose owner process has ended, in owner order. */
    public static List<Leftover> find() {
        return leftovers(StaleHostNetworks::ownerGone);
    }

    /**
     * Everything named for {@code pid}, whatever its age: called by a JVM before it makes its first network, when
     * anything under its own PID must be from an earlier process that had the same PID (pid_max may be 32768).
     */
    static List<Leftover> namedFor(long pid) {
        return leftovers((owner, group) -> owner.pid == pid);
    }

    private static List<Leftover> leftovers(java.util.function.BiPredicate<Owner, Group> select) {
        Map<Owner, Group> groups = new TreeMap<>();
        for (String ns : list(NETNS_DIR)) {
            Matcher m = NAMESPACE.matcher(ns);
            if (m.matches()) {
                Owner owner = new Owner(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)));
                groups.computeIfAbsent(owner, o -> new Group()).namespaces.add(ns);
            }
        }
        for (String link : list(SYS_NET)) {
            linkOwner(link).ifPresent(o -> groups.computeIfAbsent(o, x -> new Group()).links.add(link));
        }
        List<Leftover> selected = new ArrayList<>();
        groups.forEach((owner, group) -> {
            if (select.test(owner, group)) {
                List<Long> busy = new ArrayList<>();
                group.namespaces.forEach(ns -> busy.addAll(pidsIn(ns)));
                selected.add(new Leftover(owner.pid, owner.instance, group.namespaces, group.links, busy));
            }
        });
        return selected;
    }

    /**
     * Deletes a leftover's namespaces, then whichever of its links remain (a namespace's deletion takes its veth pair
     * with it). Refuses a busy one: its processes may be someone's work in progress.
     */
    public static void remove(Leftover leftover) {
        List<Long> busy = new ArrayList<>();
        leftover.namespaces().forEach(ns -> busy.addAll(pidsIn(ns)));
        if (!busy.isEmpty()) {
            throw new HostNetworkException("processes " + busy + " still run in " + leftover.names()
                    + ": stop them (kill PID) and run again");
        }
        List<String> failures = new ArrayList<>();
        for (String ns : leftover.namespaces()) {
            if (Files.exists(NETNS_DIR.resolve(ns))) {
                collect(failures, () -> IpTool.ip("netns", "del", ns));
            }
        }
        for (String link : leftover.links()) {
            collect(failures, () -> {
                try {
                    IpTool.ip("link", "del", link);
                } catch (HostNetworkException e) {
                    if (Files.exists(SYS_NET.resolve(link))) { // else gone with its namespace meanwhile: fine
                        throw e;
                    }
                }
            });
        }
        if (!failures.isEmpty()) {
            throw new HostNetworkException("could not remove all of " + leftover.names() + ": "
                    + String.join("; ", failures));
        }
    }

    /** The (pid, instance) whose HostNetwork made {@code link}, if it is such a name. */
    static Optional<Owner> linkOwner(String link) {
        Matcher m = LINK.matcher(link);
        return m.matches() ? Optional.of(new Owner(Long.parseLong(m.group(1), 36), Integer.parseInt(m.group(2), 36)))
                : Optional.empty();
    }

    /**
     * The owner has ended when no process has its PID, or the process that has it started after the network was
     * made (the PID was reused). With no namespace to date the network by, a live PID counts as the owner.
     */
    private static boolean ownerGone(Owner owner, Group group) {
        Optional<ProcessHandle> process = ProcessHandle.of(owner.pid).filter(ProcessTree::isAlive);
        if (process.isEmpty()) {
            return true;
        }
        Optional<Instant> started = process.get().info().startInstant();
        Optional<Instant> born = group.namespaces.stream()
                .map(ns -> modified(NETNS_DIR.resolve(ns))).flatMap(Optional::stream).min(Instant::compareTo);
        return started.isPresent() && born.isPresent() && started.get().isAfter(born.get().plus(CLOCK_SLACK));
    }

    private static List<Long> pidsIn(String ns) {
        return IpTool.ip("netns", "pids", ns).lines().map(String::strip).filter(s -> s.matches("\\d+"))
                .map(Long::parseLong).toList();
    }

    private static List<String> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new HostNetworkException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Optional<Instant> modified(Path file) {
        try {
            return Optional.of(Files.getLastModifiedTime(file).toInstant());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void collect(List<String> failures, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            failures.add(e.getMessage());
        }
    }

    record Owner(long pid, int instance) implements Comparable<Owner> {
        @Override
        public int compareTo(Owner o) {
            return pid != o.pid ? Long.compare(pid, o.pid) : Integer.compare(instance, o.instance);
        }
    }

    private static final class Group {
        final List<String> namespaces = new ArrayList<>();
        final List<String> links = new ArrayList<>();
    }
}
