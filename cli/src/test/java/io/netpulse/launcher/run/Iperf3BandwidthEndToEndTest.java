package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code type: iperf3_bandwidth} on the namespace test hosts, through {@code netpulse run}: sar's rx_bps on the SUT and
 * iperf3's own receiver total (receiver_bps, the cross-check) agree. Paced ({@code rate}, iperf3's per-stream
 * {@code -b}) so that the warm-up second iperf3's total includes and sar's window leaves out runs at the same rate.
 */
// measurement, not root: its two figures are of the same traffic, but iperf3's total spans the run by the receiver's
// own clock, and in CI's default phase (two cores saturated) it read 281 Mbit/s against sar's 300 over the window: a
// receiver ~0.3 s late in a 5-s run; alone, 0.03-0.04 % apart. Not "exclusive": paced well below what veth carries.
@Tag("measurement")
class Iperf3BandwidthEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void rxBpsFromSarAgreesWithIperf3sReceiverTotal() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "iperf3-bandwidth", """
        repetitions: 2
        stop: fixed
        warmup: 1s""", "{ type: iperf3_bandwidth, streams: 2, rate: 150M, duration: 4s }");
    RunEndToEndTest.Run run = RunEndToEndTest.run(plan, SharedPipeline.get().runArgs());
    assertThat(run.exit()).as(run.stderr()).isZero();
    Map<String, JsonNode> byKey = run.byTypeAndMetric();
    JsonNode rx = byKey.get("iperf3_bandwidth/rx_bps");
    JsonNode received = byKey.get("iperf3_bandwidth/receiver_bps");
    assertThat(rx).as(run.stdout()).isNotNull();
    assertThat(received).as(run.stdout()).isNotNull();
    assertThat(rx.path("unit").asText()).isEqualTo("bit/s");
    assertThat(received.path("unit").asText()).isEqualTo("bit/s");
    assertThat(rx.path("runs")).hasSize(2);
    assertThat(received.path("runs")).hasSize(2);
    for (int i = 0; i < 2; i++) {
      double sar = rx.path("runs").get(i).asDouble();
      double iperf3 = received.path("runs").get(i).asDouble();
      System.err.printf(Locale.ROOT, "IPERF3 repetition %d: rx_bps (sar on the SUT) %.0f, receiver_bps (iperf3) %.0f, "
          + "%.2f %% apart%n", i + 1, sar, iperf3, 100 * (sar - iperf3) / iperf3);
      // 2 × 150 Mbit/s (iperf3's M is 10^6 bit) asked for
      assertThat(iperf3).as("receiver_bps").isCloseTo(300e6, Percentage.withPercentage(10));
      // sar counts the headers iperf3 does not (under 1 % with veth's large segments) over the window only; iperf3
      // its payload over its whole run: a few %
      assertThat(sar).as("rx_bps vs receiver_bps").isCloseTo(iperf3, Percentage.withPercentage(5));
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }
}
