package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.cli.Main;
import io.netpulse.testbed.netns.HostNetwork;
import io.netpulse.testkit.LinkCap;
import io.netpulse.testkit.TestHosts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code netpulse run PLAN --format json} with test types on the namespace test hosts, over SSH,
 * attached to this JVM's shared pipeline ({@link SharedPipeline}): each type's metrics arrive with both repetitions, and
 * afterwards none of the tools the run started is left on either host.
 */
@Tag("root")
class RunEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  /** Programs the run starts; none may outlive it. */
  static final List<String> TOOLS =
      List.of("netserver", "netperf", "iperf3", "iperf", "qperf", "sockperf", "sar", "ping", "java", "ss");

  /**
   * What the SUT and the peer send in tests that check what a run does rather than what it measures: 64-byte UDP
   * holds at ~47k packets/s through it, a TCP stream at 40 Mbit/s, instead of each keeping a core busy.
   */
  static final String SENDERS_CAP = "40mbit";

  @TempDir Path dir;

  /** Half of the types (the other half: {@link PacketAndConnectionTypesEndToEndTest}, run beside it in CI). */
  @Test
  void latencyBandwidthAndUdpStreamTypesGiveTheirResultsAndLeaveNothingRunning() throws Exception {
    everyTypeGivesItsResults(HOSTS, dir, "e2e-latency-bandwidth", Map.of(
        "{ type: latency, duration: 2s, ping_count: 3 }",
        List.of("latency/tcp_lat_us", "latency/udp_lat_us", "latency/rtt_avg_ms"),
        "{ type: sockperf_latency, duration: 2s }", List.of("sockperf_latency/avg_latency_us"),
        "{ type: rx_bandwidth, streams: 2, duration: 3s }", List.of("rx_bandwidth/rx_bps"),
        "{ type: tx_bandwidth, streams: 2, duration: 3s }", List.of("tx_bandwidth/tx_bps"),
        "{ type: iperf_bandwidth, streams: 2, duration: 3s }", List.of("iperf_bandwidth/rx_bps"),
        "{ type: udp_stream, clients: [peer], duration: 3s }", List.of("udp_stream/send_pps")));
  }

  /**
   * {@code netpulse run} of one test of each type in {@code tests} (plan line → the type/metric keys it must give),
   * two repetitions, fixed, through {@link #SENDERS_CAP}: every key has both repetitions' values, a positive mean and a unit, and none of the tools
   * is left running on either host.
   */
  static Map<String, JsonNode> everyTypeGivesItsResults(TestHosts hosts, Path dir, String name,
      Map<String, List<String>> tests) throws Exception {
    Path plan = TestPlans.write(dir, hosts, name, """
        repetitions: 2
        stop: fixed
        warmup: 1s
        prepare: { nofile: 16384 }""", tests.keySet().stream().sorted().toArray(String[]::new));
    Run run;
    // what each type gives, not how much: capped, the floods leave the cores to the tests beside this one
    try (LinkCap.Both cap = LinkCap.sendersOf(hosts, SENDERS_CAP)) {
      run = run(plan, SharedPipeline.get().runArgs());
    }
    assertThat(run.exit).as(run.stderr).isZero();
    Map<String, JsonNode> byKey = run.byTypeAndMetric();
    for (String key : tests.values().stream().flatMap(List::stream).toList()) {
      JsonNode r = byKey.get(key);
      assertThat(r).as(key + " in " + run.stdout + "\n" + run.stderr).isNotNull();
      assertThat(r.path("runs")).as(key).hasSize(2);
      assertThat(r.path("mean").asDouble()).as(key).isPositive();
      assertThat(r.path("unit").asText()).as(key).isNotBlank();
    }
    assertNothingLeft(hosts);
    return byKey;
  }

  /**
   * Through the SUT's link capped like a cloud NIC (8 Mbit/s: 64-byte UDP holds at ~9.4k packets/s, which the senders
   * exceed even beside other tests, see FidelityBedTest) the rate settles at once, so the default spread (5 %) is
   * met within the first windows whatever the machine's load; uncapped, per-second UDP rates over veth on two
   * shared cores swing by ±20 % and more (docs/steady-state.md), and when they settle depends on the load.
   */
  @Test
  void steadyStopEndsEachRepetitionOneWindowAfterTheMetricSettles() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "e2e-steady", """
        repetitions: 2
        stop: steady
        warmup: 1s
        steady: { criterion: spread, window: 3s }""",
        "{ type: rx_pps, tool: iperf3, streams: 2, duration: 40s }");
    SharedPipeline pipeline = SharedPipeline.get();
    long t0 = System.nanoTime();
    Run run;
    try (LinkCap cap = LinkCap.into(HOSTS, HOSTS.sut(), "8mbit")) {
      run = run(plan, pipeline.runArgs());
    }
    long wallSeconds = (System.nanoTime() - t0) / 1_000_000_000L;
    assertThat(run.exit).as(run.stderr).isZero();
    JsonNode r = Json.mapper().readTree(run.stdout).get(0);
    assertThat(r.path("metric").asText()).isEqualTo("rx_pps");
    assertThat(r.path("runs")).hasSize(2);
    for (JsonNode rep : r.path("repetitions")) {
      // held still by the cap: settled well within the 41 s the tools would run (5-15 s here, the first repetition
      // after the pipeline's start the slowest), and measured one 3-s window from there
      assertThat(rep.path("steadyAfterMs").asLong()).as(rep.toString()).isBetween(0L, 30_000L);
      assertThat(rep.path("measuringEndMs").asLong() - rep.path("measuringStartMs").asLong())
          .as(rep.toString()).isBetween(3_000L, 4_500L);
    }
    // both repetitions together took less than one fixed-length repetition would have
    assertThat(wallSeconds).as(run.stderr).isLessThan(2 * 41);
    assertNothingLeft(HOSTS);
  }

  /** Processes in the hosts' network namespaces (ps alone would list the whole machine's). */
  static void assertNothingLeft(TestHosts hosts) throws Exception {
    for (var host : List.of(hosts.sut(), hosts.peer())) {
      for (String comm : commandsIn(host.namespace())) {
        assertThat(TOOLS).as("left running on " + host.name() + ": " + comm).doesNotContain(comm);
      }
    }
  }

  static List<String> commandsIn(String namespace) throws Exception {
    return new java.util.ArrayList<>(TestHosts.processesIn(namespace).values());
  }

  record Run(int exit, String stdout, String stderr) {

    /** The {@code --format json} entries keyed {@code type/metric}. */
    java.util.Map<String, JsonNode> byTypeAndMetric() throws Exception {
      java.util.Map<String, JsonNode> m = new java.util.HashMap<>();
      Json.mapper().readTree(stdout).forEach(r -> m.put(r.path("type").asText() + "/" + r.path("metric").asText(), r));
      return m;
    }
  }

  /**
   * {@link #run} with a sar of our own on the SUT for the whole run, as the seeds' operator samples by hand
   * ({@code sar -n DEV 1}, ISO clock in UTC, which {@link ByHand#sarRows} reads) into {@code sarLog}: the same
   * traffic netpulse measures, so that a figure reduced by hand can be compared with netpulse's.
   */
  static Run runBesideManualSar(TestHosts hosts, Path sarLog, Path plan, String... extra) {
    HostNetwork net = hosts.network();
    Process sar = net.start(hosts.sut(),
        List.of("env", "LC_ALL=C", "S_TIME_FORMAT=ISO", "TZ=UTC", "sar", "-n", "DEV", "1"), sarLog);
    try {
      return run(plan, extra);
    } finally {
      net.stop(sar);
    }
  }

  /** The real command line, in this JVM: stdout (the JSON) and stderr (progress) captured apart. */
  static Run run(Path plan, String... extra) {
    StringWriter out = new StringWriter();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldErr = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int exit;
    try {
      CommandLine cli = Main.commandLine();
      cli.setOut(new PrintWriter(out, true));
      List<String> args = new java.util.ArrayList<>(List.of("run", plan.toString(), "--format=json",
          "--data-dir=" + plan.getParent().resolve("data")));
      if (java.util.Arrays.stream(extra).noneMatch(a -> a.startsWith("--result-timeout"))) {
        args.add("--result-timeout=60");
      }
      args.addAll(List.of(extra));
      exit = cli.execute(args.toArray(String[]::new));
    } finally {
      System.setErr(oldErr);
    }
    String stderr = err.toString(StandardCharsets.UTF_8);
    System.err.println(stderr);
    return new Run(exit, out.toString(), stderr);
  }
}
