package io.netpulse.launcher.run;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.collector.ToolOutput;
import io.netpulse.common.event.LineEvent;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.run.TopicReader.Window;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 002's UDP_STREAM end to end on three namespace hosts: one netserver and sar on the SUT, netperf
 * {@code UDP_STREAM -- -m 1} from two client hosts, sar on the senders too ({@code sar: all}). The value is sar's
 * rx_pps on the SUT, equal to our own {@code sar -n DEV 1} on the SUT over the same windows (the same traffic); the
 * senders' sums arrive beside it, both client hosts ran their netperf, and every host's sar lines are on
 * {@code netpulse.lines} under its own name.
 *
 * <p>The SUT's link is capped ({@link LinkCap}, 8 Mbit/s: ~23k packets/s of netperf's 1-byte UDP, as in
 * {@link FidelityBedTest}): uncapped, rows swung ±35 % and a 16-s window kept the two sars' sub-second phase
 * difference inside 5 %; through the cap every row carries the same traffic, so 6 s measure as well.
 */
@Tag("measurement")
class UdpStreamSarOnSutEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts("peer2");

  /** As RunFidelityTest: the same traffic seen by two sars at different sub-second phases. */
  private static final double TOLERANCE = 0.05;

  @TempDir Path dir;

  @Test
  void theSutsSarGivesRxPpsWithTheSendersSumsBesideItAndEverySendersSarOnRecord() throws Exception {
    NetHost peer2 = HOSTS.host("peer2");
    Path sarLog = dir.resolve("manual-sar.txt");
    SharedPipeline pipeline = SharedPipeline.get();
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), "8mbit")) {
      String extra = "  peer2: { address: " + peer2.address() + ", user: " + HOSTS.user() + ", identity: "
          + HOSTS.identity() + ", known_hosts: " + HOSTS.knownHosts() + " }";
      Path plan = TestPlans.writeWithHosts(dir, HOSTS, "seed002-udp", extra, "repetitions: 2\nstop: fixed\nwarmup: 2s",
          "{ type: udp_stream, clients: [peer, peer2], sar: all, server_ports: shared, message: 1, duration: 6s }");
      RunEndToEndTest.Run r = RunEndToEndTest.runBesideManualSar(HOSTS, sarLog, plan, pipeline.runArgs());
      System.out.println("SEED002 " + cap.describe() + ": " + cap.stats());
      assertThat(r.exit()).as(r.stderr()).isZero();
      Map<String, JsonNode> results = r.byTypeAndMetric();
      JsonNode rx = results.get("udp_stream/rx_pps");
      assertThat(rx).as(r.stdout()).isNotNull();
      assertThat(rx.path("unit").asText()).isEqualTo("packets/s");
      assertThat(rx.path("runs")).hasSize(2);
      assertThat(rx.path("hosts")).extracting(JsonNode::asText).containsExactly("sut");
      for (String sum : List.of("send_pps", "recv_pps", "send_bps", "recv_bps")) {
        assertThat(results.get("udp_stream/" + sum)).as(sum + " in " + r.stdout()).isNotNull();
        assertThat(results.get("udp_stream/" + sum).path("mean").asDouble()).as(sum).isPositive();
      }
      List<String> runIds = new ArrayList<>();
      rx.path("runIds").forEach(n -> runIds.add(n.asText()));

      // the value is the SUT's receive rate: our own sar on the SUT over the same windows, by hand
      Map<String, Window> windows = TopicReader.windows(pipeline.bootstrapServers(), runIds);
      List<ByHand.SarRow> rows = ByHand.sarRows(Files.readString(sarLog), HOSTS.sut().iface());
      List<Double> perRepetition = new ArrayList<>();
      for (String id : runIds) {
        Window w = windows.get(id);
        assertThat(w.iface()).as("the run names the SUT's interface: seed 002's shape").isEqualTo(HOSTS.sut().iface());
        // rows wholly inside the window: sar stamps a row at the end of its second. Whole-second stamps leave W - 2
        // such rows of a W-s window, and a by-hand sar starved on CI's loaded cores skips a stamp now and then (a 6-s
        // window once held 2): at least W - 4, the value below being the check that matters
        List<Double> inside = rows.stream().filter(x -> x.epochMs() - 1000 >= w.startMs() && x.epochMs() + 1000 <= w.endMs())
            .map(ByHand.SarRow::rxPacketsPerS).toList();
        assertThat(inside).as("manual sar rows in " + id).hasSizeGreaterThanOrEqualTo((int) (w.millis() / 1000) - 4);
        perRepetition.add(inside.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
      }
      double manual = perRepetition.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double netpulse = rx.path("mean").asDouble();
      double sent = results.get("udp_stream/send_pps").path("mean").asDouble();
      System.out.printf(Locale.ROOT, "SEED002 UDP_STREAM rx_pps netpulse %.0f, manual sar %.0f (%+.2f %%, per repetition "
              + "%s); senders' send_pps %.0f, recv_pps %.0f%n", netpulse, manual,
          100 * (netpulse / manual - 1), perRepetition, sent,
          results.get("udp_stream/recv_pps").path("mean").asDouble());
      assertThat(ByHand.relativeDifference(netpulse, manual)).as("rx_pps %.0f vs manual sar %.0f", netpulse, manual)
          .isLessThanOrEqualTo(TOLERANCE);

      // both client hosts sent, and every host's sar went to the lines topic under its own name
      List<ToolOutput> outputs = TopicReader.toolOutputs(pipeline.bootstrapServers(), runIds, 2 * runIds.size());
      assertThat(outputs.stream().filter(o -> o.tool().equals("netperf")).map(ToolOutput::host)
          .collect(Collectors.toSet())).containsExactlyInAnyOrder("peer", "peer2");
      List<LineEvent> lines = TopicReader.lines(pipeline.bootstrapServers(), runIds);
      assertThat(lines.stream().filter(l -> Sources.SAR_DEV.equals(l.source())).map(LineEvent::host)
          .collect(Collectors.toSet())).containsExactlyInAnyOrder("sut", "peer", "peer2");
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
    assertThat(RunEndToEndTest.commandsIn(peer2.namespace())).doesNotContainAnyElementsOf(RunEndToEndTest.TOOLS);
  }
}
