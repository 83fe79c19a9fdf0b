package io.netpulse.testkit;

import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testbed.netns.NetHost;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Drives the TestHosts extension through a real JUnit run whose test body throws, then checks what is left. */
@Tag("root")
class TestHostsCleanupTest {
    /** Only true while this test launches {@link FailingBody}: surefire must not run it on its own. */
    static volatile boolean driving;
    static final List<NetHost> SEEN_HOSTS = new ArrayList<>();
    static final List<Long> SEEN_PIDS = new ArrayList<>();
    static final List<String> SEEN_LINKS = new ArrayList<>();
    static final List<Path> SEEN_FILES = new ArrayList<>();

    static boolean driving() {
        return driving;
    }

    @BeforeAll
    static void needsRoot() {
        assumeTrue(HostNetwork.supported(), TestHosts.NEEDS_ROOT);
    }

    @Test
    void afterAFailingTestNoNamespaceLinkProcessOrKeyFileRemains() throws Exception {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        driving = true;
        try {
            LauncherFactory.create().execute(
                    LauncherDiscoveryRequestBuilder.request().selectors(selectClass(FailingBody.class)).build(),
                    listener);
        } finally {
            driving = false;
        }
        TestExecutionSummary summary = listener.getSummary();
        assertThat(summary.getTestsFailedCount()).as("the inner test ran and failed").isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException()).hasMessage("test body failed on purpose");
        assertThat(SEEN_HOSTS).hasSize(2);
        assertThat(SEEN_PIDS).as("sshd and sleep pids").hasSize(3);

        assertThat(SEEN_PIDS).noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        String namespaces = run("ip", "netns", "list");
        for (NetHost h : SEEN_HOSTS) {
            assertThat(namespaces).doesNotContain(h.namespace());
        }
        for (String link : SEEN_LINKS) {
            assertThat(Path.of("/sys/class/net", link)).doesNotExist();
        }
        assertThat(SEEN_FILES).noneMatch(Files::exists);
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(String.join(" ", command)).isZero();
        return out;
    }

    @EnabledIf("io.netpulse.testkit.TestHostsCleanupTest#driving")
    static class FailingBody {
        @RegisterExtension
        static final TestHosts HOSTS = new TestHosts();

        @Test
        void throwsAfterStartingAProcess() {
            HostNetwork net = HOSTS.network();
            SEEN_HOSTS.clear();
            SEEN_PIDS.clear();
            SEEN_LINKS.clear();
            SEEN_FILES.clear();
            SEEN_HOSTS.addAll(net.hosts());
            SEEN_PIDS.addAll(net.trackedPids()); // the two sshds
            SEEN_PIDS.add(net.start(HOSTS.sut(), List.of("sleep", "300")).pid());
            SEEN_LINKS.add(net.bridge());
            net.hosts().forEach(h -> SEEN_LINKS.add(h.bridgePort()));
            SEEN_FILES.add(HOSTS.identity());
            SEEN_FILES.add(HOSTS.knownHosts());
            throw new IllegalStateException("test body failed on purpose");
        }
    }
}
