package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.event.RunEvent;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that ends inside its time in a test read from sar (one of two netperf TCP_STREAM senders of rx_bandwidth,
 * killed as the OOM killer would, as netperf's own {@code errno 110} ends a starved stream on the capped bed): the
 * repetition keeps a value, read over the window the plan's load held, which ends a sar row before the client's exit,
 * and its result says so ({@code client_ended}). Without the rule it failed the repetition; counting sar's later rows
 * would have read one stream's rate as the plan's two.
 */
@Tag("root")
class ClientLostEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  private static final int DURATION_S = 20;
  /** After the clients appear: past half the window (the least kept), well before the tools' end. */
  private static final Duration KILL_AFTER = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  void aSenderKilledMidTestEndsTheWindowWhereItsLoadEndedAndTheResultSaysWhy() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "client-lost", """
        repetitions: 1
        stop: fixed
        warmup: 2s""", "{ type: rx_bandwidth, streams: 2, duration: " + DURATION_S + "s }");
    String[] args = SharedPipeline.get().runArgs();
    long killedAt;
    RunEndToEndTest.Run r;
    // where the window ends, not the streams' figures: capped (RunEndToEndTest.SENDERS_CAP)
    try (LinkCap.Both cap = LinkCap.sendersOf(HOSTS, RunEndToEndTest.SENDERS_CAP)) {
      CompletableFuture<RunEndToEndTest.Run> run =
          CompletableFuture.supplyAsync(() -> RunEndToEndTest.run(plan, args));
      HOSTS.awaitRunning(HOSTS.peer(), "netperf", Duration.ofSeconds(60));
      List<ProcessHandle> senders = HOSTS.running(HOSTS.peer(), "netperf");
      assertThat(senders).as("netperf senders on the peer").isNotEmpty();
      Thread.sleep(KILL_AFTER.toMillis());
      killedAt = System.currentTimeMillis();
      assertThat(senders.get(0).destroyForcibly()).isTrue();
      r = run.get();
    }
    assertThat(r.exit()).as(r.stderr()).isZero();
    assertThat(r.stderr()).contains("the measuring window ends where it stopped loading the hosts");
    // the progress line's live rate: the SUT's sar rows on netpulse.metrics
    assertThat(r.stderr()).containsPattern("measuring [0-9.]+ [kMG]?bit/s");
    JsonNode result = r.byTypeAndMetric().get("rx_bandwidth/rx_bps");
    assertThat(result).as(r.stdout()).isNotNull();
    assertThat(result.path("runs")).hasSize(1);
    assertThat(result.path("mean").asDouble()).isPositive();
    assertThat(result.path("stops").get(0).path("reason").asText()).isEqualTo(RunEvent.STOP_CLIENT_ENDED);
    JsonNode rep = result.path("repetitions").get(0);
    long start = rep.path("measuringStartMs").asLong();
    long end = rep.path("measuringEndMs").asLong();
    assertThat(end).as("the window ends a sar row before the kill: " + rep).isBetween(killedAt - 3_000, killedAt);
    assertThat(end - start).as(rep.toString()).isLessThan((DURATION_S - 2) * 1_000L);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }
}
