package io.netpulse.holder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.holder.ConnectFailures.Kind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The pieces a climb is judged with: c1000k's port blocks, the climb line, failure kinds, port pairs. */
@Tag("unit")
class ClimbPartsTest {

  @Test
  void seedPortsInC1000kBlocksAreThirtyTwoHundred() {
    // seed 000: for port in $(seq 2000 2000 64000); do ./server $port & done; each c1000k server: PORT..PORT+99
    PortSet seed = new PortSet(PortRange.parse("2000:64000:2000"), 100);
    assertThat(seed.count()).isEqualTo(3200);
    assertThat(seed.ports()).startsWith(2000, 2001).contains(2099, 4000, 64000).endsWith(64099)
        .doesNotContain(2100, 3999, 64100);
    assertThat(seed).hasToString("2000:64000:2000 block 100");
    assertThat(PortSet.of(PortRange.parse("5001:5003")).ports()).containsExactly(5001, 5002, 5003);
    assertThatThrownBy(() -> new PortSet(PortRange.parse("2000:30000:2000"), 2001))
        .hasMessage("blocks of 2001 ports every 2000 ports overlap; use a block of at most 2000");
    assertThatThrownBy(() -> new PortSet(PortRange.parse("65500"), 100)).hasMessageContaining("past 65535");
  }

  @Test
  void climbLineReadsBackWhatItWrote() {
    ClimbLine line = new ClimbLine(ClimbEnd.CLIENT_PORTS, 4000, "each of the 1 source addresses used its 1000 "
        + "local ports (40000-40999) | toward each\nof the 4 server ports");
    assertThat(line.line()).isEqualTo("connections: climb ended_by=client_ports side=client open=4000 | each of the "
        + "1 source addresses used its 1000 local ports (40000-40999) | toward each of the 4 server ports");
    assertThat(ClimbLine.parse(line.line())).contains(line);
    String output = "connections: open=10 cap=none failed=0 in_flight=0 rate=10/s\n"
        + new ClimbLine(ClimbEnd.TIME_UP, 3, "first").line() + "\n" + line.line() + "\nconnections: summary x\n";
    assertThat(ClimbLine.lastIn(output)).contains(line);
    assertThat(ClimbLine.lastIn("connections: climb ended_by=warp_drive side=sut open=1 | newer tool")).isEmpty();
    assertThat(ClimbLine.lastIn(null)).isEmpty();
    assertThat(ClimbEnd.SUT_OPEN_FILES.side()).isEqualTo(ClimbEnd.Side.SUT);
    assertThat(ClimbEnd.CLIENT_OPEN_FILES.side()).isEqualTo(ClimbEnd.Side.CLIENT);
    assertThat(ClimbEnd.ofCode("syn_timeouts")).isEqualTo(ClimbEnd.SYN_TIMEOUTS);
  }

  @Test
  void failuresInARowSayHowTheSutStopped() {
    assertThat(Kind.of("Connection refused")).isEqualTo(Kind.REFUSED);
    assertThat(Kind.of("connect timed out after 10000 ms")).isEqualTo(Kind.TIMED_OUT);
    assertThat(Kind.of("Connection timed out")).isEqualTo(Kind.TIMED_OUT);
    assertThat(Kind.of("Cannot assign requested address")).isEqualTo(Kind.NO_LOCAL_PORT);
    assertThat(Kind.of("Too many open files in system")).isEqualTo(Kind.OPEN_FILES);
    assertThat(Kind.of("No route to host")).isEqualTo(Kind.OTHER);
    ConnectFailures f = new ConnectFailures();
    f.failed(Kind.REFUSED, "a:1: Connection refused");
    f.succeeded();
    f.failed(Kind.TIMED_OUT, "a:2: connect timed out");
    f.failed(Kind.TIMED_OUT, "a:3: connect timed out");
    f.failed(Kind.OTHER, "a:4: No route to host");
    assertThat(f.streak()).isEqualTo(3);
    assertThat(f.all()).isEqualTo(4);
    assertThat(f.total(Kind.REFUSED)).isEqualTo(1);
    assertThat(f.streakEnd()).isEqualTo(ClimbEnd.SYN_TIMEOUTS);
    assertThat(f.last()).isEqualTo("a:4: No route to host");
  }

  @Test
  void pairsGoRoundTheServerPortsThenTheSourcesAndSkipExhaustedOnes() {
    PortPairs pairs = new PortPairs(2, 3);
    assertThat(pairs.count()).isEqualTo(6);
    int first = pairs.next();
    assertThat(pairs.portIndex(first)).isZero();
    assertThat(pairs.sourceIndex(first)).isZero();
    pairs.exhaust(1);
    pairs.exhaust(4);
    int[] seen = new int[6];
    for (int i = 0; i < 8; i++) {
      seen[pairs.next()]++;
    }
    assertThat(seen[1]).isZero();
    assertThat(seen[4]).isZero();
    for (int p : new int[] {0, 2, 3, 5}) {
      pairs.exhaust(p);
    }
    assertThat(pairs.allExhausted()).isTrue();
    assertThat(pairs.next()).isEqualTo(-1);
  }
}
