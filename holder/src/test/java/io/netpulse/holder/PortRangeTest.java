package io.netpulse.holder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PortRangeTest {

  @Test
  void seedRangeHasThirtyTwoPorts() {
    PortRange r = PortRange.parse("2000:64000:2000");
    assertThat(r.count()).isEqualTo(32);
    assertThat(r.ports()).startsWith(2000, 4000).endsWith(62000, 64000);
    assertThat(r).hasToString("2000:64000:2000");
  }

  @Test
  void shortFormsAndUnevenEnds() {
    assertThat(PortRange.parse("5001").ports()).containsExactly(5001);
    assertThat(PortRange.parse("5001:5003").ports()).containsExactly(5001, 5002, 5003);
    assertThat(PortRange.parse("100:110:4").ports()).containsExactly(100, 104, 108); // LAST need not be hit
  }

  @Test
  void badSpecsNameTheProblem() {
    assertThatThrownBy(() -> PortRange.parse("2000:1000:5")).hasMessageContaining("FIRST 2000 is after LAST 1000");
    assertThatThrownBy(() -> PortRange.parse("0:10")).hasMessageContaining("1..65535");
    assertThatThrownBy(() -> PortRange.parse("1:65536")).hasMessageContaining("1..65535");
    assertThatThrownBy(() -> PortRange.parse("1:2:3:4")).hasMessageContaining("is not FIRST:LAST:STEP");
    assertThatThrownBy(() -> PortRange.parse("a:2")).hasMessageContaining("FIRST 'a' is not a whole number");
  }
}
