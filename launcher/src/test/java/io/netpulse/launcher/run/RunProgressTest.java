package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RateEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The live view shows the newest second of the SUT's metric, whatever order the windows arrive in. */
@Tag("unit")
class RunProgressTest {

  private static RateEvent rate(String host, String metric, long start, double mean) {
    return new RateEvent(RateEvent.SCHEMA, host, "eth0", metric, "packets/s", "1s", start, start + 1000, mean, mean,
        mean, 1);
  }

  @Test
  void anOlderWindowArrivingLateDoesNotReplaceANewerOne() {
    RunProgress progress = new RunProgress(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        false);
    progress.watch(new RunProgress.Watch("sut", "eth0", "rx_pps"));
    progress.onRate(rate("sut", "rx_pps", 10_000, 47_000));
    progress.onRate(rate("sut", "rx_pps", 5_000, 5)); // a second from before the traffic, late
    progress.onRate(rate("peer", "rx_pps", 11_000, 1)); // another host's series
    assertThat(progress.shownRate()).isEqualTo(Figures.format(47_000, "packets/s"));
    progress.onRate(rate("sut", "rx_pps", 11_000, 47_100));
    assertThat(progress.shownRate()).isEqualTo(Figures.format(47_100, "packets/s"));
  }
}
