package io.netpulse.testbed.netns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Stops processes by PID, descendants included: SIGTERM to all, then SIGKILL to those left after a grace period. */
public final class ProcessTree {
    private ProcessTree() {
    }

    /** Stops the given processes and all their descendants; returns once they are gone or 1 s after SIGKILL. */
    static void stop(Collection<ProcessHandle> roots, Duration grace) {
        // Snapshot descendants before signalling: once a parent dies its children are re-parented and lost.
        Set<ProcessHandle> all = new LinkedHashSet<>();
        for (ProcessHandle root : roots) {
            all.add(root);
            root.descendants().forEach(all::add);
        }
        List<ProcessHandle> alive = new ArrayList<>(all.stream().filter(ProcessTree::isAlive).toList());
        alive.forEach(ProcessHandle::destroy);
        awaitExit(alive, grace);
        alive.removeIf(p -> !isAlive(p));
        alive.forEach(ProcessHandle::destroyForcibly);
        awaitExit(alive, Duration.ofSeconds(1));
    }

    /** Alive and not a zombie: a zombie has exited, it only waits for its parent to reap it. */
    static boolean isAlive(ProcessHandle p) {
        if (!p.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            // field 3, after the ")" that closes the command name
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
        } catch (Exception gone) {
            return false;
        }
    }

    /**
     * Whether the process still runs. A zombie does not: it has exited and waits to be reaped, by its new parent if
     * its own has gone, and this machine's init reaps orphans only every 1.5-2 s (a check right after a test's child
     * exited saw its stopped sampler as alive).
     */
    public static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessTree::isAlive).orElse(false);
    }

    private static void awaitExit(List<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle p : processes) {
            while (isAlive(p) && System.nanoTime() < deadline) {
                try {
                    TimeUnit.MILLISECONDS.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
