package io.netpulse.launcher.plan;

import io.netpulse.common.catalog.TestType;

import io.netpulse.launcher.plan.PlanReader.Located;
import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import io.netpulse.launcher.plan.YamlTree.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the keys that let a test say what a seed's command lines say: which hosts run sar ({@code sar}), netperf's
 * test-specific options ({@code no_delay}, {@code message: tool_default}), iperf's and iperf3's {@code rate} and
 * udp_stream's {@code server_ports}. Each problem is reported where it is, as {@link PlanReader} does.
 */
final class TrafficReader {

  /** {@code message} meaning "no -m: netperf's own default send size" (seeds 001/004 bandwidth). */
  static final String TOOL_DEFAULT = "tool_default";
  static final List<String> SERVER_PORTS = List.of("per_instance", "shared");

  private static final Pattern RATE = Pattern.compile("\\d+(\\.\\d+)?[KMGkmg]?");

  private final PlanReader r;
  private final Map<String, HostSpec> hosts;

  TrafficReader(PlanReader r, Map<String, HostSpec> hosts) {
    this.r = r;
    this.hosts = hosts;
  }

  /**
   * Whether {@code message} asks for the tool's default send size: null when it does not, true when the test can
   * have it, false (and an error) when not: only TCP_STREAM tests can (a UDP datagram of that size would not fit).
   */
  Boolean toolDefaultMessage(MapNode m, TestType type, String where) {
    Node n = r.value(m, "message");
    if (!(n instanceof ScalarNode s) || !TOOL_DEFAULT.equals(s.text())) {
      return null;
    }
    if (type != TestType.RX_BANDWIDTH && type != TestType.TX_BANDWIDTH) {
      r.error(n.at(), where + " message is '" + TOOL_DEFAULT + "', which only rx_bandwidth and tx_bandwidth take "
          + "(netperf TCP_STREAM without -m), expected a size in bytes");
      return false;
    }
    return true;
  }

  /** netperf's test-specific {@code -D}; refused where the test runs another tool. */
  boolean noDelay(MapNode m, TestType type, Tool tool, String where) {
    if (!type.accepts("no_delay")) {
      return false;
    }
    boolean on = r.bool(m, "no_delay", where, false);
    if (on && tool != Tool.NETPERF) {
      r.error(r.value(m, "no_delay").at(), where + " no_delay is netperf's test-specific -D, but the test runs "
          + tool.yamlName() + ", expected tool: netperf or no no_delay");
      return false;
    }
    return on;
  }

  /** udp_stream's {@code server_ports: per_instance | shared}; true for shared. */
  boolean sharedServerPort(MapNode m, TestType type, boolean reverse, String where) {
    if (!type.accepts("server_ports")) {
      return false;
    }
    String v = r.choice(m, "server_ports", where, "per_instance", SERVER_PORTS, s -> s);
    if (reverse && r.has(m, "server_ports")) {
      r.error(r.value(m, "server_ports").at(), where + " server_ports is for the server's netservers, but with "
          + "reverse: true the clients run them (one each, on port), expected no server_ports");
      return false;
    }
    return "shared".equals(v);
  }

  /**
   * The hosts that run sar: {@code sut}, {@code all} (the SUT and every host the test sends from or to),
   * {@code none} or a list of host names. A test whose value is read from sar on the SUT must keep the SUT.
   *
   * @param used the hosts the test uses, the SUT first
   */
  List<String> sarHosts(MapNode m, TestType type, String sut, List<String> used, String where) {
    if (!type.accepts("sar")) {
      return List.of();
    }
    boolean needsSut = readsSarOnSut(type);
    Node n = r.value(m, "sar");
    List<String> fallback = needsSut && sut != null ? List.of(sut) : List.of();
    if (n == null) {
      return fallback;
    }
    List<String> out;
    if (n instanceof ScalarNode s && List.of("sut", "all", "none").contains(s.text())) {
      out = switch (s.text()) {
        case "sut" -> sut == null ? List.of() : List.of(sut);
        case "all" -> used;
        default -> List.of();
      };
    } else if (n instanceof YamlTree.ListNode || n instanceof ScalarNode) {
      out = names(m, used, where);
    } else {
      r.error(n.at(), where + " sar is " + n.kind() + ", expected sut, all, none or a list of host names");
      return fallback;
    }
    if (needsSut && sut != null && !out.contains(sut)) {
      r.error(n.at(), where + " sar leaves out the SUT '" + sut + "', whose sar rows give this test's value, "
          + "expected sut, all or a list that names '" + sut + "'");
      return fallback;
    }
    // the SUT first: it is the host the test is about, and dry runs list it first
    Set<String> ordered = new LinkedHashSet<>();
    if (sut != null && out.contains(sut)) {
      ordered.add(sut);
    }
    ordered.addAll(out);
    return List.copyOf(ordered);
  }

  /** The hosts a {@code sar} list names: hosts of the plan that the test uses (its others are not connected for it). */
  private List<String> names(MapNode m, List<String> used, String where) {
    List<String> out = new ArrayList<>();
    List<Located> refs = r.texts(m, "sar", where);
    if (refs == null) {
      return out;
    }
    for (Located l : refs) {
      if (used.contains(l.text())) {
        out.add(l.text());
        continue;
      }
      if (hosts.containsKey(l.text())) {
        r.error(l.at(), where + " sar lists '" + l.text() + "', which this test does not use, expected some of: "
            + String.join(", ", used));
        continue;
      }
      String near = Suggestions.closest(l.text(), hosts.keySet());
      r.error(l.at(), where + " sar refers to host '" + Addresses.printable(l.text()) + "', which is not in hosts"
          + (near != null ? ", did you mean '" + near + "'?" : ",") + " expected sut, all, none or host names of: "
          + String.join(", ", hosts.keySet()));
    }
    return out;
  }

  /** iperf's and iperf3's {@code -b}: seed 002's 2048M for iperf_bandwidth, seed 000's 0M (no limit) for iperf3 PPS. */
  String rate(MapNode m, TestType type, Tool tool, String where) {
    if (!type.accepts("rate")) {
      return null;
    }
    if (tool != Tool.IPERF && tool != Tool.IPERF3) {
      if (r.has(m, "rate")) {
        r.error(r.value(m, "rate").at(), where + " rate is iperf3's -b, but the test runs " + tool.yamlName()
            + ", which sends as fast as it can; expected tool: iperf3 or no rate");
      }
      return null;
    }
    String fallback = tool == Tool.IPERF ? "2048M" : "0M";
    String rate = r.text(m, "rate", where, fallback);
    if (rate != null && !RATE.matcher(rate).matches()) {
      r.error(r.value(m, "rate").at(), where + " rate is '" + Addresses.printable(rate)
          + "', expected a bit rate such as 2048M, 10G or 0 (unlimited)");
      return fallback;
    }
    return rate;
  }

  /** The hosts a traffic test sends from or to, the SUT first: what {@code sar: all} samples. */
  static List<String> usedHosts(String sut, String server, List<String> clients, List<String> senders) {
    Set<String> all = new LinkedHashSet<>();
    Stream.of(sut, server).filter(Objects::nonNull).forEach(all::add);
    Stream.of(clients, senders).filter(Objects::nonNull).forEach(all::addAll);
    return List.copyOf(all);
  }

  /** Types whose value is sar's on the SUT: the SUT must stay among the sar hosts. */
  private static boolean readsSarOnSut(TestType type) {
    return type.readsSarOnSut();
  }
}
