package io.netpulse.launcher.plan;

import io.netpulse.common.catalog.TestType;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PlanLoaderTest {

  static final Path EXAMPLES = Path.of("..", "examples");

  private static List<String> errorsOf(String yaml) {
    try {
      PlanLoader.parse("plan.yaml", Path.of("/plans"), yaml);
    } catch (PlanException e) {
      return e.errors().stream().map(PlanError::describe).toList();
    }
    throw new AssertionError("plan loaded without errors:\n" + yaml);
  }

  private static Plan load(String yaml) throws PlanException {
    return PlanLoader.parse("plan.yaml", Path.of("/plans"), yaml);
  }

  static final String HOSTS = """
      name: t
      hosts:
        sut:  { address: 198.18.0.2 }
        peer: { address: 198.18.0.1, user: bench, port: 2222, identity: keys/id, host_key_policy: accept-new }
      """;

  @Test
  void issueFourPlanLoadsWithSeedDefaults() throws Exception {
    Plan plan = PlanLoader.load(EXAMPLES.resolve("xlarge-vs-xlarge.yaml"));
    assertThat(plan.name()).isEqualTo("xlarge-vs-xlarge");
    assertThat(plan.source()).isEqualTo(EXAMPLES.resolve("xlarge-vs-xlarge.yaml"));
    assertThat(plan.repetitions()).isEqualTo(3);
    assertThat(plan.stop()).isEqualTo(StopMode.STEADY);
    assertThat(plan.warmup()).isEqualTo(Duration.ofSeconds(5));
    assertThat(plan.steady()).isEqualTo(SteadySpec.DEFAULT);
    assertThat(plan.tests()).extracting(TestSpec::type).containsExactly(TestType.LATENCY,
        TestType.SOCKPERF_LATENCY, TestType.RX_BANDWIDTH, TestType.TX_BANDWIDTH, TestType.RX_PPS, TestType.TX_PPS,
        TestType.NEW_CONNECTIONS, TestType.CONCURRENT_CONNECTIONS, TestType.TCP_RR, TestType.UDP_STREAM);
    HostSpec sut = plan.host("sut");
    assertThat(sut.address()).isEqualTo("198.18.0.2");
    assertThat(sut.port()).isEqualTo(22);
    assertThat(sut.acceptNewHostKeys()).isFalse();
    assertThat(sut.identity()).isEqualTo(EXAMPLES.toAbsolutePath().normalize().resolve("keys/id_ed25519"));
    TestSpec rx = plan.tests().get(2);
    assertThat(rx.streams().isAuto()).isTrue();
    assertThat(rx.streams().resolve(4)).isEqualTo(8);
    assertThat(rx.messageBytes()).isEqualTo(1440);
    assertThat(rx.port()).isEqualTo(5001);
    assertThat(rx.duration()).isEqualTo(Duration.ofSeconds(30));
    TestSpec txPps = plan.tests().get(5);
    assertThat(txPps.tool()).isEqualTo(Tool.NETPERF);
    assertThat(txPps.messageBytes()).isEqualTo(1);
    assertThat(plan.tests().get(7).target()).isEqualTo(50_000L);
    assertThat(plan.tests().get(9).clients()).containsExactly("peer");
  }

  @Test
  void everyExampleLoads() throws Exception {
    try (var files = java.nio.file.Files.list(EXAMPLES)) {
      List<Path> plans = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
      assertThat(plans).hasSizeGreaterThanOrEqualTo(6);
      for (Path p : plans) {
        Plan plan = PlanLoader.load(p);
        assertThat(plan.tests()).as(p.toString()).isNotEmpty();
      }
    }
  }

  @Test
  void hostDefaultsAndOverrides() throws Exception {
    Plan plan = load(HOSTS + "tests:\n  - { type: latency }\n");
    HostSpec peer = plan.host("peer");
    assertThat(peer.user()).isEqualTo("bench");
    assertThat(peer.port()).isEqualTo(2222);
    assertThat(peer.identity()).isEqualTo(Path.of("/plans/keys/id"));
    assertThat(peer.acceptNewHostKeys()).isTrue();
    assertThat(plan.host("sut").user()).isEqualTo("root");
    assertThat(plan.tests().get(0).pingCount()).isEqualTo(10);
  }

  @Test
  void labelsAreReadInFileOrderAndBadOnesAreReportedWhereTheyAre() throws Exception {
    Plan plan = load(HOSTS + """
        labels:
          instance_type: c7.large
          region: eu-west-1
          kernel_build: 614
        tests:
          - { type: latency }
        """);
    assertThat(plan.labels()).containsExactly(java.util.Map.entry("instance_type", "c7.large"),
        java.util.Map.entry("region", "eu-west-1"), java.util.Map.entry("kernel_build", "614"));
    assertThat(load(HOSTS + "tests:\n  - { type: latency }\n").labels()).isEmpty();
    List<String> errors = errorsOf(HOSTS + """
        labels:
          Instance-Type: c7.large
          image: [a, b]
          zone: ""
        tests:
          - { type: latency }
        """);
    assertThat(errors).containsExactly(
        "plan.yaml:6:3: label 'Instance-Type': a label's name is lower-case letters, digits and '_', starting with a "
            + "letter (at most 63), e.g. instance_type",
        "plan.yaml:7:10: label 'image' is a list, expected text",
        "plan.yaml:8:9: label 'zone' is empty, expected text");
    assertThat(errorsOf(HOSTS + "labels: c7.large\ntests:\n  - { type: latency }\n"))
        .containsExactly("plan.yaml:5:9: labels is text ('c7.large'), expected a mapping (key: value lines)");
  }

  @Test
  void unknownKeyIsReportedWhereItIsWithASuggestion() {
    List<String> errors = errorsOf(HOSTS + """
        tests:
          - type: rx_bandwidth
            stream: 8
        """);
    assertThat(errors).containsExactly("plan.yaml:7:5: unknown key 'stream' in test 1 (rx_bandwidth), "
        + "did you mean 'streams'? expected one of: type, name, duration, warmup, repetitions, steady, sut, peer, "
        + "streams, streams_per_queue, message, port, clients, no_delay, sar");
  }

  @Test
  void allErrorsAreCollectedInFileOrder() {
    List<String> errors = errorsOf("""
        name: t
        hosts:
          sut:  { address: "198.18.0.2; touch /tmp/x", port: -1 }
          peer: { address: 198.18.0.300, adress: x }
        repetitions: many
        warmup: 5
        stop: stedy
        tests:
          - { type: rx_bandwidth, duration: 10 seconds, streams: -3 }
          - { type: udp_stream, clients: [peer, pear] }
          - { type: pingpong }
          - { type: tcp_rr, sut: nobody }
        """);
    assertThat(errors).containsExactly(
        "plan.yaml:3:20: host 'sut' address: '198.18.0.2; touch /tmp/x' is neither an IP literal nor a host name "
            + "(letters, digits, '-' and '.' only), expected an IP literal or a host name",
        "plan.yaml:3:54: host 'sut' port is -1, expected a whole number from 1 to 65535",
        "plan.yaml:4:20: host 'peer' address: '198.18.0.300' is not an IPv4 literal (four numbers 0-255), "
            + "expected an IP literal or a host name",
        "plan.yaml:4:34: unknown key 'adress' in host 'peer', did you mean 'address'? expected one of: "
            + "address, test_address, user, port, identity, known_hosts, host_key_policy, proxy_jump, java, "
            + "source_addresses, ssh_config",
        "plan.yaml:5:14: the plan repetitions is text ('many'), expected a whole number from 1 to 1000",
        "plan.yaml:6:9: the plan warmup is '5', expected a duration with a unit such as 500ms, 10s, 2m or 1h",
        "plan.yaml:7:7: the plan stop is text ('stedy'), did you mean 'steady'? expected one of: steady, fixed",
        "plan.yaml:9:37: test 1 (rx_bandwidth) duration is '10 seconds', expected a duration with a unit "
            + "such as 500ms, 10s, 2m or 1h, more than zero",
        "plan.yaml:9:58: test 1 (rx_bandwidth) streams is -3, expected a whole number from 1 to 65535",
        "plan.yaml:10:41: test 2 (udp_stream) clients refers to host 'pear', which is not in hosts, "
            + "did you mean 'peer'? expected one of: sut, peer",
        "plan.yaml:11:13: test 3 type is text ('pingpong'), expected one of: latency, sockperf_latency, "
            + "rx_bandwidth, tx_bandwidth, iperf_bandwidth, iperf3_bandwidth, rx_pps, tx_pps, high_pps, new_connections, "
            + "concurrent_connections, tcp_rr, udp_stream",
        "plan.yaml:12:26: test 4 (tcp_rr) sut refers to host 'nobody', which is not in hosts, "
            + "expected one of: sut, peer");
  }

  @Test
  void missingRequiredPartsAndHosts() {
    assertThat(errorsOf("hosts: { a: { address: h1.example } }\ntests:\n  - { type: rx_bandwidth }\n"))
        .containsExactly(
            "plan.yaml:1:1: the plan has no 'name', expected a name for the results, e.g. name: xlarge-vs-xlarge",
            "plan.yaml:3:5: test 1 (rx_bandwidth) needs a host 'sut': name one in hosts 'sut' or set sut: HOST "
                + "on the test (hosts: a)",
            "plan.yaml:3:5: test 1 (rx_bandwidth) needs a host 'peer': name one in hosts 'peer' or set peer: HOST "
                + "on the test (hosts: a)");
    assertThat(errorsOf("name: x\nhosts: {}\ntests: []\n")).containsExactly(
        "plan.yaml:2:8: hosts is empty, expected at least one host",
        "plan.yaml:3:8: tests is empty, expected at least one test");
  }

  @Test
  void newlinesAndNulsInValuesAreRejected() {
    List<String> errors = errorsOf(HOSTS.replace("{ address: 198.18.0.2 }",
        "{ address: 198.18.0.2, java: \"/usr/bin/java\\ntouch /tmp/pwned\", user: \"ro ot\" }")
        + "tests: [ { type: latency, name: \"a\\u0000b\" } ]\n");
    assertThat(errors).containsExactly(
        "plan.yaml:3:38: host 'sut' java contains a line break, expected a single line of text",
        "plan.yaml:3:79: host 'sut' user 'ro ot' is not a user name (letters, digits, '_', '.', '-'; at most 32)",
        "plan.yaml:5:33: test 1 (latency) name contains a NUL character, expected a single line of text");
  }

  @Test
  void yamlSyntaxErrorHasAPosition() {
    List<String> errors = errorsOf("name: x\nhosts: { a: [1, 2\n");
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith("plan.yaml:").contains("not valid YAML");
  }

  @Test
  void duplicateKeysAreErrors() {
    assertThat(errorsOf(HOSTS + "repetitions: 2\nrepetitions: 3\ntests: [ { type: latency } ]\n"))
        .containsExactly("plan.yaml:6:1: duplicate key 'repetitions' (first at line 5), expected each key once");
  }

  @Test
  void twoTestsOfOneNameAreAnError() {
    // two rx_pps tests with different tools, neither named: both would be "rx_pps" in the results
    assertThat(errorsOf(HOSTS + """
        tests:
          - { type: rx_pps, tool: iperf3 }
          - { type: rx_pps, tool: netperf }
          - { type: rx_pps, tool: netperf, name: rx_pps-netperf }
        """)).containsExactly("plan.yaml:7:5: test 2: name 'rx_pps' is test 1's already; results are kept per test "
        + "name, so give one of them a name of its own, e.g. name: rx_pps-2");
  }

  @Test
  void durationsAndPercentages() throws Exception {
    Plan plan = load(HOSTS + """
        warmup: 500ms
        stop: fixed
        steady: { window: 2m, spread: 3%, rise: 0.25 }
        prepare: { nofile: 15000000, nr_open: 15000000, file_max: 15000000, irq_affinity: { match: virtio2-input } }
        tests:
          - { type: high_pps, senders: [peer], duration: 1h, irq_affinity: { match: eth0-rx, first_cpu: 1 } }
        """);
    assertThat(plan.warmup()).isEqualTo(Duration.ofMillis(500));
    assertThat(plan.stop()).isEqualTo(StopMode.FIXED);
    assertThat(plan.steady()).isEqualTo(new SteadySpec(Duration.ofMinutes(2), 3.0, 0.25,
        SteadySpec.DEFAULT.criterion(), 1.0, Duration.ofSeconds(60)));
    assertThat(plan.prepare()).isEqualTo(new PrepareSpec(15_000_000L, 15_000_000L, 15_000_000L,
        new IrqAffinity("virtio2-input", 0, 2)));
    TestSpec t = plan.tests().get(0);
    assertThat(t.senders()).containsExactly("peer");
    assertThat(t.duration()).isEqualTo(Duration.ofHours(1));
    assertThat(t.irqAffinity()).isEqualTo(new IrqAffinity("eth0-rx", 1, 2));
    assertThat(t.streams()).isEqualTo(Streams.of(64));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("0.1ms")).isNull();
    assertThat(Durations.parse("10")).isNull();
  }

  @Test
  void aTestsOwnSteadyKeysOverrideThePlansAndAreCheckedAsTheyAre() throws Exception {
    Plan plan = load(HOSTS + """
        steady: { precision: 1%, min_measure: 10s }
        tests:
          - { type: latency, steady: { precision: 5% } }
          - { type: rx_pps }
        """);
    // the test's precision, the plan's min_measure, the defaults for the rest
    assertThat(plan.tests().get(0).steady()).isEqualTo(new SteadySpec(SteadySpec.DEFAULT.window(),
        SteadySpec.DEFAULT.spreadPercent(), SteadySpec.DEFAULT.risePercent(), SteadySpec.Criterion.PRECISION, 5.0,
        Duration.ofSeconds(10)));
    assertThat(plan.tests().get(1).steady()).isEqualTo(plan.steady());
    assertThat(errorsOf(HOSTS + "tests: [ { type: latency, steady: { precison: 5% } } ]\n")).singleElement()
        .satisfies(e -> assertThat(e).startsWith("plan.yaml:5:").contains("test 1 (latency) steady")
            .contains("precison").contains("precision"));
    assertThat(errorsOf(HOSTS + "tests: [ { type: latency, steady: { precision: lots } } ]\n")).singleElement()
        .satisfies(e -> assertThat(e).contains("test 1 (latency) steady").contains("precision").contains("lots"));
  }

  @Test
  void addresses() {
    assertThat(Addresses.problem("198.18.0.1")).isNull();
    assertThat(Addresses.problem("fd00::1")).isNull();
    assertThat(Addresses.problem("host-1.example.com")).isNull();
    assertThat(Addresses.problem("fd00::1;id")).isNotNull();
    assertThat(Addresses.problem("-oProxyCommand=x")).isNotNull();
    assertThat(Addresses.problem("a..b")).isNotNull();
    assertThat(Addresses.problem("$(id)")).isNotNull();
  }

  @Test
  void testRequiresTwoDifferentHosts() {
    assertThat(errorsOf(HOSTS + "tests: [ { type: rx_pps, peer: sut } ]\n")).containsExactly(
        "plan.yaml:5:10: test 1 (rx_pps): sut and peer are both 'sut', expected two different hosts");
  }

  /** The plan reference (docs/plans.md) names every key and type the loader accepts. */
  @Test
  void everyKeyIsDocumented() throws Exception {
    String doc = java.nio.file.Files.readString(Path.of("..", "docs", "plans.md"));
    List<String> keys = new java.util.ArrayList<>();
    keys.addAll(PlanLoader.PLAN_KEYS);
    keys.addAll(PlanLoader.HOST_KEYS);
    PlanLoader.STEADY_KEYS.forEach(k -> keys.add("steady." + k));
    PlanLoader.PREPARE_KEYS.forEach(k -> keys.add("prepare." + k));
    PlanLoader.IRQ_KEYS.forEach(k -> keys.add("irq_affinity." + k));
    for (TestType t : TestType.ALL) {
      keys.add(t.yamlName());
      keys.addAll(t.keys());
    }
    for (Tool tool : List.of(Tool.IPERF3, Tool.NETPERF, Tool.NETPULSE, Tool.C1000K)) {
      keys.add(tool.yamlName());
    }
    for (String key : keys) {
      assertThat(doc).as("docs/plans.md documents %s", key).containsPattern("[`| ]" + java.util.regex.Pattern.quote(key) + "[`| ]");
    }
  }

  @Test
  void trafficNeverComesFromTheHostItGoesTo() {
    assertThat(errorsOf(HOSTS + """
        tests:
          - { type: udp_stream, clients: [peer, sut] }
          - { type: high_pps, senders: [sut] }
          - { type: tcp_rr, clients: [peer], sut: peer }
        """)).containsExactly(
        "plan.yaml:6:41: test 1 (udp_stream) clients lists 'sut', the host they send to; expected other hosts",
        "plan.yaml:7:33: test 2 (high_pps) senders lists 'sut', the host they send to; expected other hosts",
        "plan.yaml:8:31: test 3 (tcp_rr) clients lists 'peer', the host they send to; expected other hosts");
  }

  /** Concurrent connections climb without a cap by default, on c1000k's 100 ports per listener. */
  @Test
  void concurrentConnectionsKeys() throws Exception {
    Plan plan = load("""
        name: t
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1, source_addresses: [198.18.0.1, 198.18.0.11, "fd00::11"] }
        tests:
          - { type: concurrent_connections }
          - { type: concurrent_connections, name: capped, target: 5000, ports_per_listener: 10 }
        """);
    TestSpec open = plan.tests().get(0);
    assertThat(open.target()).isNull();
    assertThat(open.portsPerListener()).isEqualTo(100);
    assertThat(open.listeners()).isEqualTo(32);
    assertThat(plan.tests().get(1).target()).isEqualTo(5000L);
    assertThat(plan.tests().get(1).portsPerListener()).isEqualTo(10);
    assertThat(plan.host("peer").sourceAddresses()).containsExactly("198.18.0.1", "198.18.0.11", "fd00::11");
    assertThat(plan.host("sut").sourceAddresses()).isEmpty();
  }

  @Test
  void concurrentConnectionsMistakesAreNamed() {
    assertThat(errorsOf("""
        name: t
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1, source_addresses: [peer.example.com, 198.18.0.1, 198.18.0.1] }
          aux:  { address: 198.18.0.3, source_addresses: [] }
        tests:
          - { type: concurrent_connections, tool: c1000k, target: 100, ports_per_listener: 50 }
          - { type: concurrent_connections, name: b, port_step: 10 }
          - { type: concurrent_connections, name: c, port: 65400, listeners: 2, port_step: 100 }
        """)).containsExactly(
        "plan.yaml:4:51: host 'peer' source_addresses: 'peer.example.com' is not an IP literal, expected addresses "
            + "of this host to connect from, e.g. [198.18.0.1, 198.18.0.11]",
        "plan.yaml:4:81: host 'peer' source_addresses lists 198.18.0.1 twice, expected each address once",
        "plan.yaml:5:50: host 'aux' source_addresses is an empty list, expected IP addresses of this host, or no "
            + "source_addresses (the kernel's choice)",
        "plan.yaml:7:59: test 1 (concurrent_connections) target applies to tool netpulse only: c1000k's client "
            + "connects until it fails, expected no target with tool: c1000k",
        "plan.yaml:7:84: test 1 (concurrent_connections) ports_per_listener is 50, but c1000k's server always "
            + "listens on 100, expected 100 (or no ports_per_listener) with tool: c1000k",
        "plan.yaml:8:5: test 2 (concurrent_connections): ports_per_listener 100 is more than port_step 10, so the "
            + "listeners' ports would overlap; expected ports_per_listener of at most 10",
        "plan.yaml:9:5: test 3 (concurrent_connections): ports 65400 + 1 × 100 + 99 go past 65535 (to 65599), "
            + "expected fewer listeners, a smaller port_step or fewer ports_per_listener");
  }
}
