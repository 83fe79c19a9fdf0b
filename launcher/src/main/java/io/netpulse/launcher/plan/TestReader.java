package io.netpulse.launcher.plan;

import io.netpulse.common.catalog.How;
import io.netpulse.common.catalog.TestType;

import io.netpulse.launcher.plan.PlanReader.Located;
import io.netpulse.launcher.plan.YamlTree.Location;
import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads one test of a plan: its type decides the keys it accepts and the seeds' defaults. */
final class TestReader {

  private static final int MAX_PORT = 65535;
  /** Ports one c1000k server listens on, from its base port (its MAX_PORTS). */
  private static final int C1000K_PORTS = 100;
  /** netserver's own default port: seed 002 starts a bare {@code netserver}. */
  private static final int NETSERVER_PORT = 12865;

  private final PlanReader r;
  private final int index;
  private final Map<String, HostSpec> hosts;
  private final int planRepetitions;
  private final Duration planWarmup;
  private final SteadySpec planSteady;

  /** The shortest measuring window that holds a whole sar row whatever its phase. */
  private static final long MIN_WHOLE_ROWS_MS = 3_000;

  TestReader(PlanReader r, int index, Map<String, HostSpec> hosts, int repetitions, Duration warmup,
      SteadySpec steady) {
    this.r = r;
    this.planSteady = steady;
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
    TestType type = r.choice(m, "type", where, null, TestType.yamlNames(), n -> TestType.named(n).orElse(null));
    if (type == null) {
      return null;
    }
    where = "test " + index + " (" + type.yamlName() + ")";
    r.onlyKeys(m, type.keys(), where);
    String name = r.text(m, "name", where, type.yamlName());
    Duration duration = r.duration(m, "duration", where, defaultDuration(type), false);
    Duration warmup = r.duration(m, "warmup", where, planWarmup, true);
    int repetitions = r.integer(m, "repetitions", where, planRepetitions, 1, 1000);
    // the plan's steady settings, with what this test says of its own (a latency at ±5 % beside rates at ±1 %)
    SteadySpec steady = PlanLoader.steady(r, m, where + " steady", planSteady);
    warnShortMeasurement(m, type, duration, where);
    String sut = hostRef(m, "sut", where, true);
    String peer = hostRef(m, "peer", where, needsPeer(type, m));
    if (sut != null && sut.equals(peer) && needsPeer(type, m)) {
      r.error(m.at(), where + ": sut and peer are both '" + sut + "', expected two different hosts");
    }
    Streams streams = streams(m, type, where);
    Tool tool = tool(m, type, where);
    TrafficReader traffic = new TrafficReader(r, hosts);
    Boolean toolDefault = traffic.toolDefaultMessage(m, type, where);
    Integer message = toolDefault == null ? r.integer(m, "message", where, defaultMessage(type, tool), 1, 65507)
        : toolDefault ? null : defaultMessage(type, tool);
    boolean reverse = type == TestType.UDP_STREAM && r.bool(m, "reverse", where, false);
    boolean sharedPort = traffic.sharedServerPort(m, type, reverse, where);
    Integer port = r.integer(m, "port", where, sharedPort ? NETSERVER_PORT : defaultPort(type, tool), 1, MAX_PORT);
    Integer portStep = type == TestType.CONCURRENT_CONNECTIONS ? r.integer(m, "port_step", where, 2000, 1, MAX_PORT) : null;
    Integer listeners = type == TestType.CONCURRENT_CONNECTIONS ? r.integer(m, "listeners", where, 32, 1, MAX_PORT) : null;
    Integer perListener = type == TestType.CONCURRENT_CONNECTIONS ? portsPerListener(m, where, tool) : null;
    if (port != null && listeners != null && portStep != null && perListener != null) {
      checkListenerPorts(m, where, port, portStep, listeners, perListener);
    }
    if (port != null && streams != null && !streams.isAuto() && usesPortPerStream(type)
        && (long) port + streams.fixed() - 1 > MAX_PORT) {
      r.error(m.at(), where + ": ports " + port + ".." + (port + streams.fixed() - 1)
          + " go past 65535, expected a lower port or fewer streams");
    }
    Integer pingCount = type == TestType.LATENCY
        ? r.integer(m, "ping_count", where, (int) Durations.ceilSeconds(duration), 1, 1_000_000) : null;
    Long target = type == TestType.CONCURRENT_CONNECTIONS ? target(m, where, tool) : null;
    String rate = traffic.rate(m, type, tool, where);
    Integer request = type == TestType.TCP_RR ? r.integer(m, "request", where, 1, 1, 65507) : null;
    Integer response = type == TestType.TCP_RR ? r.integer(m, "response", where, 1, 1, 65507) : null;
    String server = type == TestType.UDP_STREAM ? serverRef(m, where, sut) : null;
    // the far ends of the traffic: never the host they send to (the SUT, or udp_stream's server)
    String receiver = type == TestType.UDP_STREAM ? server : sut;
    List<String> clients = hostRefs(m, "clients", where, type, peer, receiver);
    List<String> senders = type == TestType.HIGH_PPS ? hostRefs(m, "senders", where, type, peer, receiver) : null;
    IrqAffinity irq = type == TestType.HIGH_PPS ? readIrq(m, where) : null;
    String c1000kDir = type == TestType.CONCURRENT_CONNECTIONS ? c1000kDir(m, where) : null;
    TrafficOptions options = new TrafficOptions(
        traffic.sarHosts(m, type, sut, TrafficReader.usedHosts(sut, server, clients, senders), where),
        traffic.noDelay(m, type, tool, where), sharedPort,
        type == TestType.LATENCY && r.bool(m, "qperf_loop", where, false));
    return new TestSpec(index, type, name, duration, warmup, repetitions, sut, peer, streams, tool, message,
        request, response, port, portStep, listeners, pingCount, target, rate, clients, senders, server,
        reverse, irq, c1000kDir, perListener, options, steady);
  }

  /**
   * A mean of sar's per-second rows counts only rows wholly inside the measuring window whatever sar's phase, which
   * takes a window of at least 3 s (2 s holds one only when the phases line up); a shorter one keeps the rows that
   * reach past it, part-seconds without traffic among them: a 1-s window through a capped link read 4,176 against
   * 4,720 packets/s. Still run (a quick check is a user's call), but said.
   */
  private void warnShortMeasurement(MapNode m, TestType type, Duration duration, String where) {
    boolean meanOfSarRows = type.metrics().stream().anyMatch(x -> x.how() == How.MEAN_ON_SUT);
    if (duration != null && meanOfSarRows && duration.toMillis() < MIN_WHOLE_ROWS_MS) {
      r.warn(m.at(), where + ": duration " + Durations.format(duration) + " is under the 3 s that hold a whole "
          + "per-second sar row whatever its phase; its value will count part-seconds at the window's edges "
          + "(expected duration: 3s or more)");
    }
  }

  /** An optional cap: without one the clients climb until something stops them, as c1000k does. */
  private Long target(MapNode m, String where, Tool tool) {
    Long target = r.wholeLong(m, "target", where, null, 1);
    if (target != null && tool == Tool.C1000K) {
      r.error(r.value(m, "target").at(), where + " target applies to tool netpulse only: c1000k's client connects "
          + "until it fails, expected no target with tool: c1000k");
      return null;
    }
    return target;
  }

  /** c1000k's server listens on 100 ports from its base port, and netpulse's by default does the same. */
  private Integer portsPerListener(MapNode m, String where, Tool tool) {
    Integer n = r.integer(m, "ports_per_listener", where, C1000K_PORTS, 1, MAX_PORT);
    if (n != null && n != C1000K_PORTS && tool == Tool.C1000K) {
      r.error(r.value(m, "ports_per_listener").at(), where + " ports_per_listener is " + n + ", but c1000k's server "
          + "always listens on " + C1000K_PORTS + ", expected " + C1000K_PORTS + " (or no ports_per_listener) with "
          + "tool: c1000k");
      return C1000K_PORTS;
    }
    return n;
  }

  private void checkListenerPorts(MapNode m, String where, int port, int portStep, int listeners, int perListener) {
    long last = (long) port + (long) (listeners - 1) * portStep + perListener - 1;
    if (last > MAX_PORT) {
      r.error(m.at(), where + ": ports " + port + " + " + (listeners - 1) + " × " + portStep + " + "
          + (perListener - 1) + " go past 65535 (to " + last + "), expected fewer listeners, a smaller port_step "
          + "or fewer ports_per_listener");
    } else if (listeners > 1 && perListener > portStep) {
      r.error(m.at(), where + ": ports_per_listener " + perListener + " is more than port_step " + portStep
          + ", so the listeners' ports would overlap; expected ports_per_listener of at most " + portStep);
    }
  }

  /** The directory of c1000k's server and client programs: the start of their program words. */
  private String c1000kDir(MapNode m, String where) {
    String dir = r.text(m, "c1000k_dir", where, "c1000k");
    if (dir != null && ArgumentCheck.programProblem(dir) != null) {
      r.error(r.value(m, "c1000k_dir").at(), where + " c1000k_dir '" + dir + "' " + ArgumentCheck.programProblem(dir)
          + ", expected the directory of c1000k's server and client, e.g. /opt/c1000k");
      return "c1000k";
    }
    return dir;
  }

  private IrqAffinity readIrq(MapNode m, String where) {
    return r.irqAffinity(m, where);
  }

  private static boolean needsPeer(TestType type, MapNode m) {
    // udp_stream names its clients (it requires them); high_pps its senders; other traffic tests may name clients
    if (type == TestType.UDP_STREAM) {
      return false;
    }
    if (type.accepts("senders")) {
      return !m.entries().containsKey("senders");
    }
    return !type.accepts("clients") || !m.entries().containsKey("clients");
  }

  private static boolean usesPortPerStream(TestType type) {
    return type.portPerStream();
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

  private List<String> hostRefs(MapNode m, String key, String where, TestType type, String peer, String target) {
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
      if (name != null && name.equals(target)) {
        r.error(l.at(), where + " " + key + " lists '" + name + "', the host they send to; expected other hosts");
      } else if (name != null) {
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
        ? r.integer(m, "streams_per_queue", where, type.number("streams_per_queue", null), 1, 64) : 0;
    Node n = r.value(m, "streams");
    if (n == null) {
      // the catalog's count, else auto where streams_per_queue is accepted, else none: udp_stream runs one
      // instance per client, as seeds 002 and 003
      Integer fixed = type.number("streams", null);
      return fixed != null ? Streams.of(fixed) : perQueue > 0 ? Streams.auto(perQueue) : null;
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
    List<Tool> choices = type.tools().stream().map(t -> Tool.valueOf(t.toUpperCase(Locale.ROOT))).toList();
    Tool fallback = choices.isEmpty() ? Tool.NETPERF : choices.get(0);
    if (choices.size() < 2) {
      return fallback;
    }
    return r.choice(m, "tool", where, fallback, choices.stream().map(Tool::yamlName).toList(),
        s -> Tool.valueOf(s.toUpperCase(Locale.ROOT)));
  }

  private static Duration defaultDuration(TestType type) {
    return type.duration();
  }

  private static Integer defaultMessage(TestType type, Tool tool) {
    return type.number("message", tool.yamlName());
  }

  private static Integer defaultPort(TestType type, Tool tool) {
    return type.number("port", tool.yamlName());
  }
}
