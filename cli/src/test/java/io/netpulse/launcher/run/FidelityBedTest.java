package io.netpulse.launcher.run;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.collector.ToolOutput;
import io.netpulse.common.event.LineEvent;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's fidelity test bed: the SUT's link capped like a cloud NIC at its limit (tbf both ways, so that RX tests'
 * traffic passes the cap into the SUT and TX tests' the cap out of it), where per-second rates hold still and
 * figures taken minutes apart can be compared. On it, rx_pps, tx_pps, rx_bandwidth, tx_bandwidth and seed 002's
 * udp_stream: {@code netpulse run}'s mean is within ±2 % of the seed's procedure typed by hand just before it
 * ({@link SeedByHand}). By hand once before, and again after only where the two differ by more than that: through
 * the cap the by-hand figures taken before and after netpulse's run differed by 0.00-0.34 % (CI, 2026-12-03), but
 * one 6-s reading of two TCP streams is one TCP loss recovery away from a low second (rows of 7.8 Mbit/s with one of
 * 6.9), and once read 5 % under netpulse's. Where it is read twice, netpulse is held to the mean of both readings,
 * as it was when every pair was read before and after. One repetition each: what is compared is a repetition's value
 * against the procedure by hand (averaging repetitions is the same arithmetic as everywhere, checked by RunFidelityTest);
 * a second repetition of each took the CI's measurement phase another minute.
 *
 * <p>Where they differ, the printout says why: each repetition's window with the SUT's sar rows netpulse streamed
 * (those it counted marked) and its clients' start and end. netpulse's value of each repetition must also equal
 * those rows averaged by hand (the same rows by the same rule: no reduction of its own).
 *
 * <p>The cap, 8 Mbit/s, is low enough that the senders offer more than it even with the pipeline on the same two
 * cores (64-byte UDP: 9,434 packets/s; netperf's 1-byte UDP: 23,256 packets/s); at 40 Mbit/s, 64-byte UDP dipped to
 * 34k–43k packets/s in some seconds at load average 6–8 here, the senders, not the cap, setting the rate.
 */
// not alone (tag "exclusive"): through an 8 Mbit/s cap the senders offer more than it even beside other tests, so
// the cap, not the machine's load, sets every rate compared here (cli/pom.xml)
@Tag("measurement")
class FidelityBedTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts("peer2");

  private static final String CAP = "8mbit";
  private static final double TOLERANCE = 0.02;
  /** netpulse's value against the same rows averaged by hand: only rounding may differ. */
  private static final double SAME_ROWS_TOLERANCE = 0.001;
  private static final int WARMUP_S = 2;
  private static final int MEASURED_S = 6;
  private static final int STREAMS = 2;

  @TempDir Path dir;

  /** A by-hand procedure and the netpulse result (type/metric) it is compared with. */
  private record Pair(SeedByHand.Procedure byHand, String result) {}

  @Test
  void throughTheCappedLinkNetpulseReadsWhatTheSeedsProceduresReadByHand() throws Exception {
    NetHost sut = HOSTS.sut();
    NetHost peer2 = HOSTS.host("peer2");
    int clientSeconds = SeedByHand.clientSeconds(WARMUP_S, MEASURED_S);
    List<Pair> pairs = List.of(
        new Pair(SeedByHand.pps(HOSTS, true, STREAMS, 5001, clientSeconds), "rx_pps/rx_pps"),
        new Pair(SeedByHand.pps(HOSTS, false, STREAMS, 5001, clientSeconds), "tx_pps/tx_pps"),
        new Pair(SeedByHand.bandwidth(HOSTS, true, STREAMS, 5001, clientSeconds), "rx_bandwidth/rx_bps"),
        new Pair(SeedByHand.bandwidth(HOSTS, false, STREAMS, 5001, clientSeconds), "tx_bandwidth/tx_bps"),
        new Pair(SeedByHand.udpStream(HOSTS, List.of(HOSTS.peer(), peer2), clientSeconds), "udp_stream/rx_pps"));
    String extra = "  peer2: { address: " + peer2.address() + ", user: " + HOSTS.user() + ", identity: "
        + HOSTS.identity() + ", known_hosts: " + HOSTS.knownHosts() + " }";
    String common = ", port: 5001, duration: " + MEASURED_S + "s }";
    Path plan = TestPlans.writeWithHosts(dir, HOSTS, "fidelity-bed", extra,
        "repetitions: 1\nstop: fixed\nwarmup: " + WARMUP_S + "s",
        "{ type: rx_pps, tool: iperf3, streams: " + STREAMS + common,
        "{ type: tx_pps, tool: iperf3, streams: " + STREAMS + common,
        "{ type: rx_bandwidth, streams: " + STREAMS + common,
        "{ type: tx_bandwidth, streams: " + STREAMS + common,
        "{ type: udp_stream, clients: [peer, peer2], sar: sut, server_ports: shared, message: 1, duration: "
            + MEASURED_S + "s }");

    String loadBefore = loadAverage();
    Instant started = Instant.now();
    Map<String, SeedByHand.Figure> before = new LinkedHashMap<>();
    Map<String, SeedByHand.Figure> after = new LinkedHashMap<>();
    Map<String, List<Double>> sameRows = new LinkedHashMap<>();
    RunEndToEndTest.Run run;
    String caps;
    SharedPipeline pipeline = SharedPipeline.get();
    try (LinkCap into = LinkCap.into(HOSTS, sut, CAP); LinkCap outOf = LinkCap.outOf(HOSTS, sut, CAP)) {
      for (Pair p : pairs) {
        before.put(p.result(), SeedByHand.run(HOSTS, p.byHand(), WARMUP_S, MEASURED_S, dir, "before"));
      }
      run = RunEndToEndTest.run(plan, pipeline.runArgs());
      caps = into.describe() + ": " + into.stats() + "\n" + outOf.describe() + ": " + outOf.stats();
      assertThat(run.exit()).as(run.stderr()).isZero();
      Map<String, JsonNode> results = run.byTypeAndMetric();
      for (Pair p : pairs) {
        JsonNode entry = results.get(p.result());
        assertThat(entry).as(p.result() + " in " + run.stdout()).isNotNull();
        assertThat(entry.path("failedRepetitions").size()).as("failed repetitions of " + p.result()).isZero();
        sameRows.put(p.result(), explain(pipeline.bootstrapServers(), entry, p.byHand().column()));
        if (Math.abs(entry.path("mean").asDouble() / before.get(p.result()).value() - 1) > TOLERANCE) {
          after.put(p.result(), SeedByHand.run(HOSTS, p.byHand(), WARMUP_S, MEASURED_S, dir, "after"));
        }
      }
    }
    Map<String, JsonNode> results = run.byTypeAndMetric();
    System.out.printf(Locale.ROOT, "FIDELITY-BED %s, load average before %s, after %s; caps:%n%s%n", started,
        loadBefore, loadAverage(), caps);

    SoftAssertions soft = new SoftAssertions();
    for (Pair p : pairs) {
      String name = p.result();
      JsonNode entry = results.get(name);
      double netpulse = entry.path("mean").asDouble();
      SeedByHand.Figure again = after.get(name);
      double byHand = again == null ? before.get(name).value() : (before.get(name).value() + again.value()) / 2;
      double diff = netpulse / byHand - 1;
      List<Double> runs = new ArrayList<>();
      entry.path("runs").forEach(n -> runs.add(n.asDouble()));
      System.out.printf(Locale.ROOT, "FIDELITY-BED %-20s netpulse %.0f %s (runs %s; its own rows by hand %s) vs by"
              + " hand %.0f: %+.2f %%; by hand's rows %s%s%n",
          name, netpulse, entry.path("unit").asText(), rounded(runs), rounded(sameRows.get(name)), byHand, 100 * diff,
          rounded(before.get(name).rows()), again == null ? "" : String.format(Locale.ROOT,
              " (before: %.0f), read again after: %.0f, rows %s", before.get(name).value(), again.value(),
              rounded(again.rows())));
      soft.assertThat(Math.abs(diff)).as("%s: netpulse %.0f (runs %s) vs by hand %.0f", name, netpulse,
          rounded(runs), byHand).isLessThanOrEqualTo(TOLERANCE);
      for (int i = 0; i < runs.size(); i++) {
        soft.assertThat(ByHand.relativeDifference(runs.get(i), sameRows.get(name).get(i)))
            .as("%s repetition %d: netpulse %.1f vs its own sar rows in its window by hand %.1f", name, i + 1,
                runs.get(i), sameRows.get(name).get(i)).isLessThanOrEqualTo(SAME_ROWS_TOLERANCE);
      }
    }
    soft.assertAll();
    RunEndToEndTest.assertNothingLeft(HOSTS);
    assertThat(RunEndToEndTest.commandsIn(peer2.namespace())).doesNotContainAnyElementsOf(RunEndToEndTest.TOOLS);
  }

  /**
   * Prints each repetition's window, the SUT's sar rows netpulse streamed (ms from the window's start, * where
   * wholly inside it: the rows it counts) and its clients' start and end; returns per repetition the mean of the
   * counted rows, by hand.
   */
  private static List<Double> explain(String bootstrap, JsonNode entry, ToDoubleFunction<ByHand.SarRow> column) {
    List<String> runIds = new ArrayList<>();
    entry.path("runIds").forEach(n -> runIds.add(n.asText()));
    Map<String, TopicReader.Window> windows = TopicReader.windows(bootstrap, runIds);
    List<LineEvent> lines = TopicReader.lines(bootstrap, runIds);
    List<ToolOutput> outputs = TopicReader.toolOutputs(bootstrap, runIds, runIds.size());
    List<Double> means = new ArrayList<>();
    for (String id : runIds) {
      TopicReader.Window w = windows.get(id);
      String sar = lines.stream()
          .filter(l -> id.equals(l.run()) && "sut".equals(l.host()) && Sources.SAR_DEV.equals(l.source()))
          .sorted(Comparator.comparingLong(LineEvent::seq)).map(LineEvent::line).collect(Collectors.joining("\n"));
      List<ByHand.SarRow> rows = ByHand.sarRows(sar, w.iface());
      List<ByHand.SarRow> counted = ByHand.inWindow(rows, w.startMs(), w.endMs());
      means.add(counted.stream().mapToDouble(column).average().orElse(Double.NaN));
      String shown = rows.stream().map(r -> String.format(Locale.ROOT, "%+d%s:%.0f", r.epochMs() - w.startMs(),
          counted.contains(r) ? "*" : "", column.applyAsDouble(r))).collect(Collectors.joining(" "));
      String clients = outputs.stream().filter(o -> id.equals(o.run()) && "client".equals(o.role()))
          .map(o -> String.format(Locale.ROOT, "%s#%d %+d..%+d", o.tool(), o.instance(), o.started() - w.startMs(),
              o.ended() - w.startMs())).collect(Collectors.joining(", "));
      System.out.printf(Locale.ROOT, "FIDELITY-BED window %s: %d ms; SUT's sar rows (ms from its start, * counted):"
          + " %s; clients %s%n", id, w.millis(), shown, clients);
    }
    return means;
  }

  private static List<String> rounded(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList();
  }

  private static String loadAverage() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).strip();
  }
}
