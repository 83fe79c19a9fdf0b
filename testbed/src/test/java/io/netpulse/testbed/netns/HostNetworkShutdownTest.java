package io.netpulse.testbed.netns;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Ctrl-C on a JVM holding a HostNetwork: the shutdown hook must stop its processes and delete its links. */
@Tag("root")
class HostNetworkShutdownTest {
    @BeforeAll
    static void needsRoot() {
        assumeTrue(HostNetwork.supported(), "needs root to create network namespaces: run as root or with sudo");
    }

    @Test
    void sigintRunsCloseThroughTheShutdownHook() throws Exception {
        Process child = ShutdownHookProbe.start();
        String[] names = null;
        try {
            String line = new BufferedReader(new InputStreamReader(child.getInputStream())).readLine();
            assertThat(line).as("probe output").isNotNull();
            names = line.split(" ");
            long sleeper = Long.parseLong(names[5]);
            assertThat(Path.of("/sys/class/net", names[0])).exists();
            assertThat(ProcessTree.isAlive(sleeper)).isTrue();

            assertThat(new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor()).isZero();
            assertThat(child.waitFor(15, TimeUnit.SECONDS)).as("child JVM exited").isTrue();

            assertThat(ProcessTree.isAlive(sleeper)).isFalse();
            String namespaces = IpTool.ip("netns", "list");
            assertThat(namespaces).doesNotContain(names[1]).doesNotContain(names[2]);
            for (String link : List.of(names[0], names[3], names[4])) {
                assertThat(Path.of("/sys/class/net", link)).doesNotExist();
            }
        } finally {
            if (child.isAlive()) {
                ProcessTree.stop(List.of(child.toHandle()), Duration.ofSeconds(5));
            }
            if (names != null) {
                removeLeftovers(names);
            }
        }
    }

    /** When the hook failed, a test still owes the machine a clean state: the probe's processes and links. */
    static void removeLeftovers(String[] names) {
        removeLeftovers(List.of(names[1], names[2]), List.of(names[0], names[3], names[4]));
    }

    /** Stops what runs in {@code namespaces}, deletes them, then whichever of {@code links} remain. */
    static void removeLeftovers(List<String> namespaces, List<String> links) {
        for (String ns : namespaces) {
            if (Files.exists(Path.of("/run/netns", ns))) {
                List<ProcessHandle> inside = IpTool.ip("netns", "pids", ns).lines().map(String::strip)
                        .filter(s -> !s.isEmpty()).map(Long::parseLong).map(ProcessHandle::of)
                        .flatMap(Optional::stream).toList();
                ProcessTree.stop(inside, Duration.ofSeconds(2));
                IpTool.ip("netns", "del", ns);
            }
        }
        for (String link : links) {
            try {
                IpTool.ip("link", "del", link);
            } catch (HostNetworkException e) {
                if (Files.exists(Path.of("/sys/class/net", link))) { // else gone already, with its namespace
                    throw e;
                }
            }
        }
    }
}
