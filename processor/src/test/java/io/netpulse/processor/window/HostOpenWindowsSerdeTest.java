package io.netpulse.processor.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.event.WideSample;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class HostOpenWindowsSerdeTest {

  private static final long T0 = 1_796_014_830_000L;
  private final HostOpenWindowsSerde serde = new HostOpenWindowsSerde();

  @Test
  void aHostsWindowsComeBackAsTheyWereAndCloseToTheSameRecords() {
    HostOpenWindows h = new HostOpenWindows("sut");
    h.timeMs = T0 + 11_000;
    h.closedBeforeMs = T0 - 10_000;
    h.add(WindowTopologyTest.net("sut", "eth0", T0 + 1_000, 1e9, 80_000), 5_000);
    h.add(WindowTopologyTest.net("sut", "eth0", T0 + 2_000, 2e9, 81_000), 5_000);
    h.add(WindowTopologyTest.net("sut", "eth1", T0 + 10_000, 3, 1), 5_000);
    h.add(new WideSample(WideSample.SCHEMA, "netstat", Map.of("host", "sut"), Map.of("tcp_estab", 12.0),
        Map.of(), T0 + 10_500), 5_000); // a field without a unit

    HostOpenWindows back = serde.deserialize("t", serde.serialize("t", h));

    assertThat(back.host).isEqualTo("sut");
    assertThat(back.timeMs).isEqualTo(h.timeMs);
    assertThat(back.closedBeforeMs).isEqualTo(h.closedBeforeMs);
    assertThat(back.open.keySet()).containsExactly(T0, T0 + 10_000);
    assertThat(back.takeAll()).extracting(OpenWindow::toRecord).containsExactlyElementsOf(
        h.takeAll().stream().map(OpenWindow::toRecord).toList());
    assertThat(serde.deserialize("t", serde.serialize("t", new HostOpenWindows("idle"))).open).isEmpty();
  }

  @Test
  void aCorruptOrUnknownValueFailsNamingTheTopic() {
    byte[] good = serde.serialize("t", new HostOpenWindows("sut"));
    assertThatThrownBy(() -> serde.deserialize("app-ten-second-windows-changelog", Arrays.copyOf(good, 5)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("app-ten-second-windows-changelog")
        .hasMessageContaining("truncated or corrupt");
    byte[] future = good.clone();
    future[0] = 9;
    assertThatThrownBy(() -> serde.deserialize("t", future)).isInstanceOf(SerializationException.class)
        .hasMessageContaining("unknown version 9");
  }
}
