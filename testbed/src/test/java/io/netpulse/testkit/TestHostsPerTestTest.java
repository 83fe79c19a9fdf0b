package io.netpulse.testkit;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Registered on an instance field, TestHosts gives each test its own hosts and removes them after it. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("root")
class TestHostsPerTestTest {
    private static String firstNamespace;

    @RegisterExtension
    final TestHosts hosts = new TestHosts();

    @Test
    @Order(1)
    void firstTestGetsHosts() {
        firstNamespace = hosts.sut().namespace();
        assertThat(hosts.exec(hosts.sut(), "cat", "/proc/net/dev")).contains(hosts.sut().iface() + ":");
    }

    @Test
    @Order(2)
    void secondTestGetsFreshHostsAndTheFirstOnesAreGone() {
        assertThat(firstNamespace).isNotNull();
        assertThat(hosts.sut().namespace()).isNotEqualTo(firstNamespace);
        assertThat(Path.of("/run/netns", firstNamespace)).doesNotExist();
        assertThat(Path.of("/run/netns", hosts.sut().namespace())).exists();
    }
}
