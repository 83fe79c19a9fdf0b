package io.netpulse.launcher.plan;

import io.netpulse.launcher.plan.PlanReader.Located;
import io.netpulse.launcher.plan.YamlTree.Location;
import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import io.netpulse.launcher.plan.YamlTree.ListNode;
import io.netpulse.launcher.procedure.ArgumentCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Loads and validates a plan file. Every problem is collected with {@code file:line:column} before
 * anything starts; {@link PlanException} carries them all. Defaults follow the seeds.
 */
public final class PlanLoader {

  static final List<String> PLAN_KEYS =
      List.of("name", "hosts", "repetitions", "warmup", "stop", "steady", "prepare", "tests");
  static final List<String> HOST_KEYS =
      List.of("address", "user", "port", "identity", "known_hosts", "accept_new_host_keys", "java");
  static final List<String> STEADY_KEYS = List.of("window", "spread", "rise");
  static final List<String> PREPARE_KEYS = List.of("nofile", "nr_open", "file_max", "irq_affinity");
  static final List<String> IRQ_KEYS = List.of("match", "first_cpu", "cpu_step");

  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern RATE = Pattern.compile("\\d+(\\.\\d+)?[KMGkmg]?");
  private static final int MAX_PORT = 65535;

  private final String file;
  private final Path baseDir;
  private final PlanReader r;

  private PlanLoader(String file, Path baseDir, List<PlanError> errors) {
    this.file = file;
    this.baseDir = baseDir;
    this.r = new PlanReader(file, errors);
  }

  /** Reads and validates {@code planFile}; relative key paths resolve against its directory. */
  public static Plan load(Path planFile) throws PlanException {
    String text;
    try {
      text = Files.readString(planFile, StandardCharsets.UTF_8);
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new PlanException(List.of(new PlanError(planFile.toString(), 1, 1,
          "cannot read the plan: " + e.getMessage() + ", expected a readable YAML file")));
    }
    Path dir = planFile.toAbsolutePath().getParent();
    return parse(planFile.toString(), dir, text);
  }

  /** Validates plan text; {@code fileName} is used in messages, {@code baseDir} for relative paths. */
  public static Plan parse(String fileName, Path baseDir, String text) throws PlanException {
    List<PlanError> errors = new ArrayList<>();
    Node root;
    try {
      root = YamlTree.read(fileName, text, errors);
    } catch (YamlTree.SyntaxError e) {
      errors.add(new PlanError(fileName, e.at.line(), e.at.column(), e.getMessage()));
      throw new PlanException(errors);
    }
    Plan plan = new PlanLoader(fileName, baseDir, errors).plan(root);
    if (!errors.isEmpty()) {
      errors.sort(java.util.Comparator.comparingInt(PlanError::line).thenComparingInt(PlanError::column));
      throw new PlanException(errors);
    }
    return plan;
  }

  private Plan plan(Node root) {
    MapNode m = r.mapping(root, "the plan");
    if (m == null) {
      return null;
    }
    r.onlyKeys(m, PLAN_KEYS, "the plan");
    String name = r.text(r.required(m, "name", "the plan", "a name for the results, e.g. name: xlarge-vs-xlarge"),
        "name");
    Map<String, HostSpec> hosts = hosts(m);
    int repetitions = r.integer(m, "repetitions", "the plan", 3, 1, 1000);
    Duration warmup = r.duration(m, "warmup", "the plan", Duration.ofSeconds(5), true);
    StopMode stop = r.choice(m, "stop", "the plan", StopMode.STEADY, List.of("steady", "fixed"),
        s -> StopMode.valueOf(s.toUpperCase(Locale.ROOT)));
    SteadySpec steady = steady(m);
    PrepareSpec prepare = prepare(m);
    List<TestSpec> tests = tests(m, hosts, repetitions, warmup);
    return new Plan(baseDir == null ? null : baseDir.resolve(file).normalize(), name, hosts, repetitions,
        warmup, stop, steady, prepare, tests);
  }

  private Map<String, HostSpec> hosts(MapNode plan) {
    Map<String, HostSpec> hosts = new LinkedHashMap<>();
    Node n = r.required(plan, "hosts", "the plan", "a mapping of host names to { address, user, ... }");
    MapNode m = n == null ? null : r.mapping(n, "hosts");
    if (m == null) {
      return hosts;
    }
    if (m.entries().isEmpty()) {
      r.error(m.at(), "hosts is empty, expected at least one host");
    }
    for (YamlTree.Entry e : m.entries().values()) {
      String name = e.key();
      String where = "host '" + Addresses.printable(name) + "'";
      if (!HOST_NAME.matcher(name).matches()) {
        r.error(e.keyAt(), where + ": a host's name may have letters, digits, '_', '.', '-' only");
      }
      MapNode h = r.mapping(e.value(), where);
      if (h == null) {
        continue;
      }
      r.onlyKeys(h, HOST_KEYS, where);
      Node addressNode = r.required(h, "address", where, "an IP literal or a host name");
      String address = r.text(addressNode, where + " address");
      if (address != null) {
        String problem = Addresses.problem(address);
        if (problem != null) {
          r.error(addressNode.at(), where + " address: " + problem + ", expected an IP literal or a host name");
        }
      }
      String user = r.text(h, "user", where, "root");
      if (user != null && ArgumentCheck.userProblem(user) != null) {
        r.error(r.value(h, "user").at(), where + " user '" + Addresses.printable(user) + "' "
            + ArgumentCheck.userProblem(user));
      }
      int port = r.integer(h, "port", where, 22, 1, MAX_PORT);
      String identity = r.text(h, "identity", where, null);
      String knownHosts = r.text(h, "known_hosts", where, null);
      boolean acceptNew = r.bool(h, "accept_new_host_keys", where, false);
      String java = r.text(h, "java", where, null);
      hosts.put(name, new HostSpec(name, address, user, port, path(identity),
          knownHosts == null ? Path.of(System.getProperty("user.home"), ".ssh", "known_hosts") : path(knownHosts),
          acceptNew, java));
    }
    return hosts;
  }

  private Path path(String text) {
    if (text == null) {
      return null;
    }
    Path p = Path.of(text.startsWith("~/") ? System.getProperty("user.home") + text.substring(1) : text);
    return baseDir == null || p.isAbsolute() ? p : baseDir.resolve(p).normalize();
  }

  private SteadySpec steady(MapNode plan) {
    Node n = r.value(plan, "steady");
    MapNode m = n == null ? null : r.mapping(n, "steady");
    if (m == null) {
      return SteadySpec.DEFAULT;
    }
    r.onlyKeys(m, STEADY_KEYS, "steady");
    SteadySpec d = SteadySpec.DEFAULT;
    return new SteadySpec(r.duration(m, "window", "steady", d.window(), false),
        r.percent(m, "spread", "steady", d.spreadPercent()), r.percent(m, "rise", "steady", d.risePercent()));
  }

  private PrepareSpec prepare(MapNode plan) {
    Node n = r.value(plan, "prepare");
    MapNode m = n == null ? null : r.mapping(n, "prepare");
    if (m == null) {
      return PrepareSpec.NONE;
    }
    r.onlyKeys(m, PREPARE_KEYS, "prepare");
    return new PrepareSpec(r.wholeLong(m, "nofile", "prepare", null, 1),
        r.wholeLong(m, "nr_open", "prepare", null, 1), r.wholeLong(m, "file_max", "prepare", null, 1),
        irqAffinity(m, "prepare"));
  }

  private IrqAffinity irqAffinity(MapNode parent, String where) {
    Node n = r.value(parent, "irq_affinity");
    MapNode m = n == null ? null : r.mapping(n, where + " irq_affinity");
    if (m == null) {
      return null;
    }
    String w = where + " irq_affinity";
    r.onlyKeys(m, IRQ_KEYS, w);
    String match = r.text(r.required(m, "match", w, "the /proc/interrupts name of the NIC's queues, e.g. virtio2-input"),
        w + " match");
    return new IrqAffinity(match, r.integer(m, "first_cpu", w, 0, 0, 8191), r.integer(m, "cpu_step", w, 2, 1, 8191));
  }

  private List<TestSpec> tests(MapNode plan, Map<String, HostSpec> hosts, int repetitions, Duration warmup) {
    List<TestSpec> tests = new ArrayList<>();
    Node n = r.required(plan, "tests", "the plan", "a list of tests, e.g. - { type: latency, duration: 10s }");
    if (n == null) {
      return tests;
    }
    if (!(n instanceof ListNode list)) {
      r.error(n.at(), "tests is " + n.kind() + ", expected a list of tests (lines starting with '- ')");
      return tests;
    }
    if (list.items().isEmpty()) {
      r.error(n.at(), "tests is empty, expected at least one test");
    }
    int index = 0;
    for (Node item : list.items()) {
      index++;
      TestSpec t = new TestReader(index, hosts, repetitions, warmup).read(item);
      if (t != null) {
        tests.add(t);
      }
    }
    return tests;
  }

  /** Reads one test: its type decides the keys it accepts and the seeds' defaults. */
  private final class TestReader {
    private final int index;
    private final Map<String, HostSpec> hosts;
    private final int planRepetitions;
    private final Duration planWarmup;

    TestReader(int index, Map<String, HostSpec> hosts, int repetitions, Duration warmup) {
      this.index = index;
      this.hosts = hosts;
      this.planRepetitions = repetitions;
      this.planWarmup = warmup;
    }

    TestSpec read(Node node) {
      String where = "test " + index;
      MapNode m = r.mapping(node, where);
      if (m == null) {
        return null;
      }
      Node typeNode = r.required(m, "type", where, "one of: " + String.join(", ", TestType.yamlNames()));
      if (typeNode == null) {
        return null;
      }
      TestType type = r.choice(m, "type", where, null, TestType.yamlNames(), TestType::fromYaml);
      if (type == null) {
        return null;
      }
      where = "test " + index + " (" + type.yamlName() + ")";
      r.onlyKeys(m, type.keys(), where);
      String name = r.text(m, "name", where, type.yamlName());
      Duration duration = r.duration(m, "duration", where, defaultDuration(type), false);
      Duration warmup = r.duration(m, "warmup", where, planWarmup, true);
      int repetitions = r.integer(m, "repetitions", where, planRepetitions, 1, 1000);
      String sut = hostRef(m, "sut", where, true);
      String peer = hostRef(m, "peer", where, needsPeer(type, m));
      if (sut != null && sut.equals(peer) && needsPeer(type, m)) {
        r.error(m.at(), where + ": sut and peer are both '" + sut + "', expected two different hosts");
      }
      Streams streams = streams(m, type, where);
      Tool tool = tool(m, type, where);
      Integer message = r.integer(m, "message", where, defaultMessage(type, tool), 1, 65507);
      Integer port = r.integer(m, "port", where, defaultPort(type, tool), 1, MAX_PORT);
      Integer portStep = type == TestType.CONCURRENT_CONNECTIONS ? r.integer(m, "port_step", where, 2000, 1, MAX_PORT) : null;
      Integer listeners = type == TestType.CONCURRENT_CONNECTIONS ? r.integer(m, "listeners", where, 32, 1, MAX_PORT) : null;
      if (port != null && listeners != null && (long) port + (long) (listeners - 1) * portStep > MAX_PORT) {
        r.error(m.at(), where + ": ports " + port + " + " + (listeners - 1) + " × " + portStep
            + " go past 65535, expected fewer listeners or a smaller port_step");
      }
      if (port != null && streams != null && !streams.isAuto() && usesPortPerStream(type)
          && (long) port + streams.fixed() - 1 > MAX_PORT) {
        r.error(m.at(), where + ": ports " + port + ".." + (port + streams.fixed() - 1)
            + " go past 65535, expected a lower port or fewer streams");
      }
      Integer pingCount = type == TestType.LATENCY
          ? r.integer(m, "ping_count", where, (int) Durations.ceilSeconds(duration), 1, 1_000_000) : null;
      Long target = type == TestType.CONCURRENT_CONNECTIONS ? r.wholeLong(m, "target", where, 1_000_000L, 1) : null;
      String rate = type == TestType.IPERF_BANDWIDTH ? rate(m, where) : null;
      Integer request = type == TestType.TCP_RR ? r.integer(m, "request", where, 1, 1, 65507) : null;
      Integer response = type == TestType.TCP_RR ? r.integer(m, "response", where, 1, 1, 65507) : null;
      List<String> clients = hostRefs(m, "clients", where, type, peer);
      List<String> senders = type == TestType.HIGH_PPS ? hostRefs(m, "senders", where, type, peer) : null;
      String server = type == TestType.UDP_STREAM ? serverRef(m, where, sut) : null;
      boolean reverse = type == TestType.UDP_STREAM && r.bool(m, "reverse", where, false);
      IrqAffinity irq = type == TestType.HIGH_PPS ? readIrq(m, where) : null;
      String c1000kDir = type == TestType.CONCURRENT_CONNECTIONS ? r.text(m, "c1000k_dir", where, "c1000k") : null;
      return new TestSpec(index, type, name, duration, warmup, repetitions, sut, peer, streams, tool, message,
          request, response, port, portStep, listeners, pingCount, target, rate, clients, senders, server,
          reverse, irq, c1000kDir);
    }

    private IrqAffinity readIrq(MapNode m, String where) {
      return irqAffinity(m, where);
    }

    private static boolean needsPeer(TestType type, MapNode m) {
      // udp_stream names its clients; high_pps its senders; tcp_rr and concurrent_connections may name clients
      return switch (type) {
        case UDP_STREAM -> false;
        case HIGH_PPS -> !m.entries().containsKey("senders");
        case TCP_RR, CONCURRENT_CONNECTIONS -> !m.entries().containsKey("clients");
        default -> true;
      };
    }

    private static boolean usesPortPerStream(TestType type) {
      return switch (type) {
        case RX_BANDWIDTH, TX_BANDWIDTH, RX_PPS, TX_PPS, NEW_CONNECTIONS, HIGH_PPS -> true;
        default -> false;
      };
    }

    private String hostRef(MapNode m, String key, String where, boolean needed) {
      Node n = r.value(m, key);
      if (n == null) {
        if (needed && !hosts.isEmpty() && !hosts.containsKey(key)) {
          r.error(m.at(), where + " needs a host '" + key + "': name one in hosts '" + key
              + "' or set " + key + ": HOST on the test (hosts: " + String.join(", ", hosts.keySet()) + ")");
          return null;
        }
        return needed || hosts.containsKey(key) ? key : null;
      }
      String name = r.text(n, where + " " + key);
      return name == null ? null : known(name, n.at(), where + " " + key);
    }

    private String known(String name, Location at, String what) {
      if (hosts.containsKey(name)) {
        return name;
      }
      String near = Suggestions.closest(name, hosts.keySet());
      r.error(at, what + " refers to host '" + Addresses.printable(name) + "', which is not in hosts"
          + (near != null ? ", did you mean '" + near + "'?" : ",")
          + " expected one of: " + String.join(", ", hosts.keySet()));
      return null;
    }

    private List<String> hostRefs(MapNode m, String key, String where, TestType type, String peer) {
      boolean accepts = type.accepts(key);
      if (!accepts) {
        return null;
      }
      List<Located> refs = r.texts(m, key, where);
      if (refs == null) {
        if (type == TestType.UDP_STREAM) {
          r.error(m.at(), where + " has no 'clients', expected a list of host names that send, e.g. clients: [peer]");
          return List.of();
        }
        return peer == null ? List.of() : List.of(peer);
      }
      List<String> names = new ArrayList<>();
      for (Located l : refs) {
        String name = known(l.text(), l.at(), where + " " + key);
        if (name != null) {
          names.add(name);
        }
      }
      return names;
    }

    private String serverRef(MapNode m, String where, String sut) {
      Node n = r.value(m, "server");
      if (n == null) {
        return sut;
      }
      String name = r.text(n, where + " server");
      return name == null ? null : known(name, n.at(), where + " server");
    }

    private Streams streams(MapNode m, TestType type, String where) {
      if (!type.accepts("streams")) {
        return null;
      }
      int perQueue = type.accepts("streams_per_queue")
          ? r.integer(m, "streams_per_queue", where, type == TestType.IPERF_BANDWIDTH ? 1 : 2, 1, 64) : 0;
      Node n = r.value(m, "streams");
      if (n == null) {
        return switch (type) {
          case NEW_CONNECTIONS -> Streams.of(256);
          case TCP_RR -> Streams.of(300);
          case HIGH_PPS -> Streams.of(64);
          default -> Streams.auto(perQueue);
        };
      }
      if (n instanceof YamlTree.ScalarNode s && "auto".equals(s.text()) && perQueue > 0) {
        return Streams.auto(perQueue);
      }
      Long v = n instanceof YamlTree.ScalarNode s && s.token() == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT
          ? r.whole(n, where + " streams", 1, 65535) : null;
      if (v == null) {
        if (!(n instanceof YamlTree.ScalarNode s && s.token() == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT)) {
          r.error(n.at(), where + " streams is " + n.kind() + ", expected "
              + (perQueue > 0 ? "auto or " : "") + "a whole number from 1 to 65535");
        }
        return perQueue > 0 ? Streams.auto(perQueue) : Streams.of(1);
      }
      return Streams.of(v.intValue());
    }

    private Tool tool(MapNode m, TestType type, String where) {
      List<Tool> choices = switch (type) {
        case RX_PPS, TX_PPS -> List.of(Tool.IPERF3, Tool.NETPERF);
        case CONCURRENT_CONNECTIONS -> List.of(Tool.NETPULSE, Tool.C1000K);
        default -> List.of();
      };
      Tool fallback = switch (type) {
        case LATENCY -> Tool.QPERF;
        case SOCKPERF_LATENCY, HIGH_PPS -> Tool.SOCKPERF;
        case IPERF_BANDWIDTH -> Tool.IPERF;
        case RX_PPS, TX_PPS -> Tool.IPERF3;
        case CONCURRENT_CONNECTIONS -> Tool.NETPULSE;
        default -> Tool.NETPERF;
      };
      if (choices.isEmpty()) {
        return fallback;
      }
      return r.choice(m, "tool", where, fallback, choices.stream().map(Tool::yamlName).toList(),
          s -> Tool.valueOf(s.toUpperCase(Locale.ROOT)));
    }

    private String rate(MapNode m, String where) {
      String rate = r.text(m, "rate", where, "2048M");
      if (rate != null && !RATE.matcher(rate).matches()) {
        r.error(r.value(m, "rate").at(), where + " rate is '" + Addresses.printable(rate)
            + "', expected a bit rate such as 2048M, 10G or 0 (unlimited)");
        return "2048M";
      }
      return rate;
    }

    private static Duration defaultDuration(TestType type) {
      return switch (type) {
        case CONCURRENT_CONNECTIONS -> Duration.ofSeconds(60);
        case NEW_CONNECTIONS, TCP_RR, UDP_STREAM -> Duration.ofSeconds(20);
        case LATENCY, SOCKPERF_LATENCY -> Duration.ofSeconds(10);
        default -> Duration.ofSeconds(30);
      };
    }

    private static Integer defaultMessage(TestType type, Tool tool) {
      return switch (type) {
        case LATENCY, NEW_CONNECTIONS -> 64;
        case SOCKPERF_LATENCY, HIGH_PPS -> 14;
        case RX_BANDWIDTH, TX_BANDWIDTH -> 1440;
        case RX_PPS, TX_PPS -> tool == Tool.NETPERF ? 1 : 64;
        case UDP_STREAM -> 1;
        default -> null;
      };
    }

    private static Integer defaultPort(TestType type, Tool tool) {
      return switch (type) {
        case LATENCY -> 19765; // qperf's own default listen port
        case SOCKPERF_LATENCY -> 11111; // sockperf's default
        case RX_BANDWIDTH, TX_BANDWIDTH, IPERF_BANDWIDTH -> 5001;
        case RX_PPS, TX_PPS -> tool == Tool.NETPERF ? 16001 : 5001;
        case HIGH_PPS -> 6666;
        case NEW_CONNECTIONS -> 9001;
        case CONCURRENT_CONNECTIONS -> 2000;
        case TCP_RR -> 12865; // netserver's default port
        case UDP_STREAM -> 11256;
      };
    }
  }

}
