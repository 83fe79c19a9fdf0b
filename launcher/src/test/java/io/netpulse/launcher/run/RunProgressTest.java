package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.WideSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The live view shows the newest second of the SUT's metric, whatever order its records arrive in. */
@Tag("unit")
class RunProgressTest {

  private static WideSample net(String host, String iface, long time, double rxPps, String summary) {
    Map<String, String> tags = new java.util.HashMap<>(Map.of("host", host, "interface", iface, "source", "sar-dev"));
    if (summary != null) {
      tags.put("summary", summary);
    }
    return new WideSample(WideSample.SCHEMA, "net", tags, Map.of("rx_pps", rxPps, "tx_pps", 3.0),
        Map.of("rx_pps", "packets/s", "tx_pps", "packets/s"), time);
  }

  private static RunProgress progress() {
    return new RunProgress(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
  }

  @Test
  void anOlderSecondArrivingLateDoesNotReplaceANewerOne() {
    RunProgress progress = progress();
    progress.watch(new RunProgress.Watch("net", "sut", "eth0", "rx_pps"));
    progress.onMetric(net("sut", "eth0", 10_000, 47_000, null));
    progress.onMetric(net("sut", "eth0", 5_000, 5, null)); // a second from before the traffic, late
    progress.onMetric(net("peer", "eth0", 11_000, 1, null)); // another host's series
    progress.onMetric(net("sut", "lo", 11_000, 2, null)); // another interface
    progress.onMetric(net("sut", "eth0", 12_000, 9, "true")); // sar's Average: row, no second's rate
    assertThat(progress.shownRate()).isEqualTo(Figures.format(47_000, "packets/s"));
    progress.onMetric(net("sut", "eth0", 11_000, 47_100, null));
    assertThat(progress.shownRate()).isEqualTo(Figures.format(47_100, "packets/s"));
  }

  @Test
  void anotherMeasurementOrAFieldItLacksShowsNothing() {
    RunProgress progress = progress();
    progress.watch(new RunProgress.Watch("netstat", "sut", null, "tcp_estab"));
    progress.onMetric(net("sut", "eth0", 10_000, 47_000, null));
    assertThat(progress.shownRate()).isEmpty();
    progress.onMetric(new WideSample(WideSample.SCHEMA, "netstat", Map.of("host", "sut", "source", "ss-summary"),
        Map.of("tcp_estab", 2001.0), Map.of("tcp_estab", "connections"), 10_000));
    assertThat(progress.shownRate()).isEqualTo(Figures.format(2001, "connections"));
  }
}
