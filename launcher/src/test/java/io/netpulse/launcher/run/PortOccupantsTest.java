package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PortOccupantsTest {

  /**
   * {@code ss -Htanp} in a namespace of this machine (Debian bookworm's iproute2): a listener without SO_REUSEADDR on
   * 46048 that accepted two connections, closed one first (its TIME-WAIT) and kept the other, and a listener on 46050.
   */
  private static String captured() throws Exception {
    return new String(PortOccupantsTest.class.getResourceAsStream("ss-tanp-occupants.txt").readAllBytes(),
        StandardCharsets.UTF_8);
  }

  @Test
  void theSocketsOnTheTestsPortsWithTheirStatesAndProcesses() throws Exception {
    List<PortOccupants.Socket> held = PortOccupants.parse(captured(), Set.of(46048, 46049));
    assertThat(held).containsExactly(
        new PortOccupants.Socket("LISTEN", 46048, "0.0.0.0:*", "users:((\"python3\",pid=4019,fd=3))"),
        new PortOccupants.Socket("ESTAB", 46048, "198.19.250.1:44460", "users:((\"python3\",pid=4019,fd=5))"),
        new PortOccupants.Socket("TIME-WAIT", 46048, "198.19.250.1:44452", ""));
    assertThat(PortOccupants.allTimeWait(held)).isFalse();
    assertThat(PortOccupants.allTimeWait(held.subList(2, 3))).isTrue();
    assertThat(PortOccupants.describe(held)).isEqualTo("1 ESTAB on port 46048 (users:((\"python3\",pid=4019,fd=5)));"
        + " 1 LISTEN on port 46048 (users:((\"python3\",pid=4019,fd=3))); 1 TIME-WAIT on port 46048");
    assertThat(PortOccupants.parse(captured(), Set.of(2000))).isEmpty();
  }

  @Test
  void theFilterAsksForConsecutivePortsAsOneRange() {
    Set<Integer> ports = new TreeSet<>(List.of(2000, 2001, 2002, 4000, 4001, 9001));
    assertThat(PortOccupants.filter(ports))
        .isEqualTo("( ( sport >= :2000 and sport <= :2002 ) or ( sport >= :4000 and sport <= :4001 ) or sport = :9001 )");
  }

  @Test
  void manyTimeWaitSocketsAreSummedUpWithAFewOfTheirPorts() {
    List<PortOccupants.Socket> held = new java.util.ArrayList<>();
    for (int p = 46048; p < 46053; p++) {
      held.add(new PortOccupants.Socket("TIME-WAIT", p, "198.18.35.1:5003", ""));
    }
    assertThat(PortOccupants.describe(held)).isEqualTo("5 TIME-WAIT on ports 46048, 46049, 46050 and 2 more");
  }
}
