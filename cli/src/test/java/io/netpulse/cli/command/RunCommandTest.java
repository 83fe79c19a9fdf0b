package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import io.netpulse.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class RunCommandTest {

  static final String EXAMPLE = Path.of("..", "examples", "xlarge-vs-xlarge.yaml").toString();

  /** Through Main's command line, as bin/netpulse runs it. */
  private static CliRun run(String... args) {
    return CliRun.of(args);
  }


  @Test
  void dryRunPrintsEveryTestAndRepetitionPerHost() {
    CliRun r = run("run", EXAMPLE, "--dry-run", "--queues", "4");
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("plan xlarge-vs-xlarge: 10 tests, stop: steady (precision 1.0 %, min_measure 1m; a "
        + "connection count by its rise, window 10s, rise 0.5 %)")
        .contains("SUT facts assumed: interface eth0, 4 queues")
        .contains("test 3 (rx_bandwidth): 8 stream(s), tools run 35s")
        .contains("    peer     client  netperf -H 198.18.0.2 -t TCP_STREAM -l 35 -p 5008 -D 1 -- -m 1440")
        .contains("    sut      sampler env LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC sar -n DEV 1")
        .contains("    peer     client  (after stage 1) env LC_ALL=C ping -c 10 198.18.0.2")
        .contains("  result tcp_lat_us [us] = qperf tcp_lat_us on peer as the tool prints it")
        .contains("  result rx_bps [bit/s] = mean of sar-dev rx_bps on sut eth0 over the measuring phase");
    // 10 tests × 3 repetitions
    assertThat(r.out().lines().filter(l -> l.startsWith("  repetition ")).count()).isEqualTo(30);
    // new_connections: 64 netservers and 64 netperfs, in each of the 3 repetitions
    assertThat(r.out().lines().filter(l -> l.contains("-t TCP_CRR")).count()).isEqualTo(64 * 3);
  }

  @Test
  void dryRunSaysAPrecisionStopsSettings(@TempDir Path dir) throws Exception {
    Path plan = dir.resolve("precise.yaml");
    Files.writeString(plan, """
        name: precise
        hosts:
          sut: { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
        steady: { criterion: precision, precision: 0.5%, min_measure: 30s }
        tests:
          - { type: rx_pps, tool: iperf3, streams: 2, duration: 120s }
        """);
    CliRun r = run("run", plan.toString(), "--dry-run", "--queues", "1");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("plan precise: 1 tests, stop: steady (precision 0.5 %, min_measure 30s; a connection "
        + "count by its rise, window 10s, rise 0.5 %)");
  }

  @Test
  void dryRunAsJson() throws Exception {
    CliRun r = run("run", EXAMPLE, "--dry-run", "--queues", "2", "--iface", "ens5", "--format", "json");
    assertThat(r.exit()).isZero();
    JsonNode all = Json.mapper().readTree(r.out());
    assertThat(all.size()).isEqualTo(30);
    JsonNode rx = all.get(6); // test 3, repetition 1
    assertThat(rx.get("type").asText()).isEqualTo("rx_bandwidth");
    assertThat(rx.get("repetition").asInt()).isEqualTo(1);
    assertThat(rx.get("streams").asInt()).isEqualTo(4);
    JsonNode first = rx.get("commands").get(0);
    assertThat(first.get("role").asText()).isEqualTo("sampler");
    assertThat(first.get("host").asText()).isEqualTo("sut");
    assertThat(first.get("address").asText()).isEqualTo("198.18.0.2");
    List<String> argv = new ArrayList<>();
    // after sar, the CPU samplers of sut and peer and the 4 netservers: the first client
    rx.get("commands").get(7).get("argv").forEach(a -> argv.add(a.asText()));
    assertThat(argv).containsExactly("netperf", "-H", "198.18.0.2", "-t", "TCP_STREAM", "-l", "35", "-p", "5001",
        "-D", "1", "--", "-m", "1440");
    assertThat(rx.get("results").get(0).get("iface").asText()).isEqualTo("ens5");
  }

  @Test
  void invalidPlanGivesEveryErrorWithPositionAndExit2(@TempDir Path dir) throws Exception {
    Path plan = dir.resolve("bad.yaml");
    Files.writeString(plan, """
        name: bad
        hosts:
          sut: { address: "198.18.0.2 && reboot" }
          peer: { address: 198.18.0.1 }
        tests:
          - { type: rx_bandwidth, streams: lots, durration: 10s }
        """);
    CliRun r = run("run", plan.toString(), "--dry-run", "--queues", "4");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).containsExactly(
        plan + ":3:19: host 'sut' address: '198.18.0.2 && reboot' is neither an IP literal nor a host name "
            + "(letters, digits, '-' and '.' only), expected an IP literal or a host name",
        plan + ":6:36: test 1 (rx_bandwidth) streams is text ('lots'), expected auto or a whole number from 1 to 65535",
        plan + ":6:42: unknown key 'durration' in test 1 (rx_bandwidth), did you mean 'duration'? expected one of: "
            + "type, name, duration, warmup, repetitions, steady, sut, peer, streams, streams_per_queue, message, port, "
            + "clients, no_delay, sar",
        "netpulse run: 3 error(s) in " + plan + "; nothing was started");
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void missingPlanFileIsAClearError(@TempDir Path dir) {
    CliRun r = run("run", dir.resolve("nope.yaml").toString(), "--dry-run");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith(dir.resolve("nope.yaml") + ":1:1: cannot read the plan: ")
        .doesNotContain("\tat ");
  }

  @Test
  void binaryPlanFileIsAClearError(@TempDir Path dir) throws Exception {
    Path plan = dir.resolve("plan.yaml");
    Files.write(plan, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    CliRun r = run("run", plan.toString(), "--dry-run");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith(plan + ":1:1: the plan is not UTF-8 text, expected a YAML file in UTF-8");
  }

  @Test
  void autoStreamsNeedQueuesInADryRun() {
    CliRun r = run("run", EXAMPLE, "--dry-run");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("give --queues N for a dry run");
  }

  @Test
  void impossiblePortsAreAUsageError() {
    CliRun r = run("run", Path.of("..", "examples", "seed-001-aliyun.yaml").toString(), "--dry-run", "--queues", "8",
        "--iface", "eth0; reboot");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("interface name 'eth0; reboot' is not an interface name");
  }

  @Test
  void everyExampleDryRuns() throws Exception {
    try (var files = Files.list(Path.of("..", "examples"))) {
      for (Path p : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        CliRun r = run("run", p.toString(), "--dry-run", "--queues", "8", "--format", "json");
        assertThat(r.exit()).as(p + ": " + r.err()).isZero();
        assertThat(Json.mapper().readTree(r.out()).size()).as(p.toString()).isPositive();
      }
    }
  }

  @Test
  void attachWithoutAKafkaIsAUsageErrorBeforeAnythingStarts(@TempDir Path dir) {
    CliRun r = run("run", EXAMPLE, "--attach", "--data-dir=" + dir.resolve("data"));
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    assertThat(r.err().strip()).isEqualTo("netpulse: --attach needs --bootstrap-servers (or NETPULSE_BOOTSTRAP_SERVERS, "
        + "or bootstrap.servers in --kafka-config): the Kafka whose running processor computes the results");
    assertThat(dir.resolve("data")).doesNotExist(); // no embedded broker or store was started
  }
}
