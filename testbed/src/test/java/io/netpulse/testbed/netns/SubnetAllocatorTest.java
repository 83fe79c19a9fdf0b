package io.netpulse.testbed.netns;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("unit")
class SubnetAllocatorTest {
    private static final String MACHINE = """
            1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
            4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever
            9: np1x1b    inet 198.18.7.254/24 scope global np1x1b\\       valid_lft forever
            """;

    @Test
    void parsesEveryIpv4AddressWithItsPrefix() {
        List<long[]> used = SubnetAllocator.usedNetworks(MACHINE);
        assertThat(used).hasSize(3);
        assertThat(used.get(2)[0]).isEqualTo(SubnetAllocator.candidate(7) | 254);
        assertThat(used.get(2)[1]).isEqualTo(24);
    }

    @RepeatedTest(20)
    void neverPicksASubnetInUse() {
        List<long[]> used = new ArrayList<>(SubnetAllocator.usedNetworks(MACHINE));
        for (int x = 1; x <= 254; x++) {
            if (x != 7 && x != 200) {
                used.add(new long[] {SubnetAllocator.candidate(x) | 1, 24});
            }
        }
        assertThat(SubnetAllocator.freeOctet(used)).isEqualTo(200);
    }

    @Test
    void aWiderPrefixCoveringTheRangeBlocksEverything() {
        List<long[]> used = SubnetAllocator.usedNetworks("2: x inet 198.18.0.1/15 scope global x");
        assertThatThrownBy(() -> SubnetAllocator.freeOctet(used)).isInstanceOf(HostNetworkException.class)
                .hasMessageContaining("no free /24");
        assertThat(SubnetAllocator.overlaps(SubnetAllocator.candidate(3), 24, SubnetAllocator.candidate(3) | 9, 30))
                .isTrue();
        assertThat(SubnetAllocator.overlaps(SubnetAllocator.candidate(3), 24, SubnetAllocator.candidate(4), 24))
                .isFalse();
    }
}
