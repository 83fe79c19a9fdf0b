package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stop: steady} with {@code criterion: precision} (issue 17) on the namespace test hosts, through the SUT's
 * link capped like a cloud NIC (8 Mbit/s: 64-byte UDP holds at ~9.4k packets/s, see FidelityBedTest): each repetition
 * measures from its warm-up's end until the processor reports the mean known to ±1 %, never before min_measure, and
 * stops there, long before its planned 60 s; its value is within ±2 % of a {@code stop: fixed} run of the same test
 * through the same cap. And through a cap with a burst credit, the value is the sustained rate's, not the burst's.
 */
@Tag("measurement")
class PrecisionStopEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final int DURATION_S = 60;
  private static final int MIN_MEASURE_S = 5;

  @TempDir Path dir;

  @Test
  void rxPpsStopsWhenItsMeanIsKnownToOnePercentAndAgreesWithAFixedRun() throws Exception {
    String test = "{ type: rx_pps, tool: iperf3, streams: 2, duration: %ds }";
    Path precisePlan = TestPlans.write(dir, HOSTS, "precise", """
        repetitions: 2
        stop: steady
        warmup: 1s
        steady: { criterion: precision, precision: 1%%, min_measure: %ds }""".formatted(MIN_MEASURE_S),
        test.formatted(DURATION_S));
    Path fixedPlan = TestPlans.write(dir, HOSTS, "fixed", """
        repetitions: 1
        stop: fixed
        warmup: 1s""", test.formatted(6));
    SharedPipeline pipeline = SharedPipeline.get();
    RunEndToEndTest.Run precise;
    RunEndToEndTest.Run fixed;
    long t0 = System.nanoTime();
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), "8mbit")) {
      precise = RunEndToEndTest.run(precisePlan, pipeline.runArgs());
      long wallSeconds = (System.nanoTime() - t0) / 1_000_000_000L;
      assertThat(wallSeconds).as("two repetitions took less than one run to its duration").isLessThan(DURATION_S);
      fixed = RunEndToEndTest.run(fixedPlan, pipeline.runArgs());
    }
    assertThat(precise.exit()).as(precise.stderr()).isZero();
    assertThat(fixed.exit()).as(fixed.stderr()).isZero();
    assertThat(precise.stderr()).contains("rx_pps precise after").doesNotContain("a level shift");
    JsonNode r = Json.mapper().readTree(precise.stdout()).get(0);
    assertThat(r.path("runs")).hasSize(2);
    for (JsonNode rep : r.path("repetitions")) {
      long measuredMs = rep.path("measuringEndMs").asLong() - rep.path("measuringStartMs").asLong();
      // judged from the warm-up's end: at least min_measure, and at a cap far less than the duration
      assertThat(measuredMs).as(rep.toString()).isBetween(MIN_MEASURE_S * 1000L, 30_000L);
      assertThat(rep.path("steadyAfterMs").asLong()).as(rep.toString()).isPositive();
    }
    // each result says why each repetition stopped and the precision its value has: the processor's batch means
    // over the window's seconds, within the plan's 1 % (the judge's own verdict covered the same seconds)
    assertThat(r.path("stops")).as(r.toString()).hasSize(2);
    for (JsonNode stop : r.path("stops")) {
      assertThat(stop.path("reason").asText()).as(stop.toString()).isEqualTo("precise");
      assertThat(stop.path("precision").asDouble()).as(stop.toString()).isBetween(0.0, 0.01);
    }
    JsonNode fixedResult = Json.mapper().readTree(fixed.stdout()).get(0);
    assertThat(fixedResult.path("stops").get(0).path("reason").asText()).isEqualTo("duration");
    double fixedMean = fixedResult.path("mean").asDouble();
    assertThat(r.path("mean").asDouble()).as("precision stop against fixed, through the same cap")
        .isCloseTo(fixedMean, Percentage.withPercentage(2));
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /**
   * Issue 17's burst safety on a burstable link: 8 Mbit/s sustained after a credit of 30 MB at up to 24 Mbit/s,
   * i.e. 15 s at three times the rate for senders that offer more than the peak (half the 30 s, for CI's time:
   * what is tested is that the credit's seconds are seen and forgotten, which its length does not change). With
   * min_measure 20 s (past the credit, as docs/steady-state.md says to set it on burstable types), the repetition
   * stops precise on the sustained
   * rate, judged from after the credit ran out, not on the burst. The sustained rate is the cap's own: tbf counts a
   * 64-byte UDP datagram's whole frame, 64 + 8 + 20 + 14 bytes, so 8 Mbit/s is 9,434 packets/s (as FidelityBedTest's
   * by-hand runs read through it). The credit is on the peer's sending link (see LinkCap.outOfWithCredit for why not
   * on the SUT's receiving one).
   */
  @Test
  void aBurstCreditIsNotReportedAsTheRateAndTheStopIsPreciseOnTheSustainedRate() throws Exception {
    double sustained = 8_000_000.0 / ((64 + 8 + 20 + 14) * 8);
    double burst = 3 * sustained;
    Path plan = TestPlans.write(dir, HOSTS, "burst", """
        repetitions: 1
        stop: steady
        warmup: 1s
        steady: { criterion: precision, precision: 1%, min_measure: 20s }""",
        "{ type: rx_pps, tool: iperf3, streams: 2, duration: 150s }");
    RunEndToEndTest.Run run;
    try (LinkCap cap = LinkCap.outOfWithCredit(HOSTS, HOSTS.peer(), "8mbit", "24mbit", "30mb")) {
      run = RunEndToEndTest.run(plan, SharedPipeline.get().runArgs());
    }
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertThat(run.stderr()).as("judged from after the credit's seconds").contains("rx_pps precise after")
        .contains("a level shift");
    JsonNode r = Json.mapper().readTree(run.stdout()).get(0);
    assertThat(r.path("stops").get(0).path("reason").asText()).as(r.toString()).isEqualTo("precise");
    assertThat(r.path("stops").get(0).path("precision").asDouble()).isBetween(0.0, 0.01);
    assertThat(r.path("mean").asDouble()).as("the sustained rate, not the burst's %.0f packets/s", burst)
        .isCloseTo(sustained, Percentage.withPercentage(2));
    JsonNode rep = r.path("repetitions").get(0);
    long measuredMs = rep.path("measuringEndMs").asLong() - rep.path("measuringStartMs").asLong();
    assertThat(measuredMs).as("min_measure again after the credit, long before the duration").isBetween(20_000L,
        100_000L);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }
}
