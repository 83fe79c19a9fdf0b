package io.netpulse.launcher.remote;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Checks a host before a run (tools, interface towards the peer, limits) and installs missing tools on request. */
public final class Preflight {

  private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);

  /** Version flags; other programs are only looked up on PATH. */
  private static final Map<String, String> VERSION_FLAGS = Map.of("netperf", "-V", "netserver", "-V", "iperf3", "--version",
      "iperf", "-v", "qperf", "--version", "sockperf", "--version", "sar", "-V", "ss", "-V", "ping", "-V",
      "java", "-version");

  /**
   * One probe, constant text: $1 is the peer address, the rest are program names (all passed as quoted arguments).
   * Prints tab-separated facts, one a line.
   */
  private static final String PROBE = String.join("\n",
      "peer=$1; shift",
      "first() { grep -v '^[[:space:]]*$' | head -n 1; }",
      "for t in \"$@\"; do",
      "  if command -v \"$t\" >/dev/null 2>&1; then",
      "    case $t in",
      "      netperf|netserver) f=-V;; iperf3) f=--version;; iperf) f=-v;; qperf) f=--version;;",
      "      sockperf) f=--version;; sar) f=-V;; ss) f=-V;; ping) f=-V;; java) f=-version;;",
      "      *) f=;;",
      "    esac",
      "    if [ -n \"$f\" ]; then v=$(\"$t\" \"$f\" 2>&1 </dev/null | first); else v=$(command -v \"$t\"); fi",
      "    printf 'tool\\t%s\\t%s\\n' \"$t\" \"$v\"",
      "  else",
      "    printf 'missing\\t%s\\n' \"$t\"",
      "  fi",
      "done",
      "dev=$(ip -o route get \"$peer\" 2>/dev/null | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -n 1)",
      "printf 'iface\\t%s\\n' \"$dev\"",
      "if [ -n \"$dev\" ]; then printf 'queues\\t%s\\n' \"$(ls -d /sys/class/net/\"$dev\"/queues/rx-* 2>/dev/null | wc -l)\"; fi",
      "printf 'nofile\\t%s\\n' \"$(ulimit -n)\"",
      "printf 'nr_open\\t%s\\n' \"$(cat /proc/sys/fs/nr_open)\"",
      "printf 'file_max\\t%s\\n' \"$(cat /proc/sys/fs/file-max)\"",
      "printf 'kernel\\t%s\\n' \"$(uname -r)\"",
      "printf 'boot_id\\t%s\\n' \"$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)\"",
      // provenance: what the figures were measured on (arm64's /proc/cpuinfo has no model name: lscpu's then)
      "m=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)",
      "[ -n \"$m\" ] || m=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)",
      "printf 'cpu_model\\t%s\\n' \"$m\"",
      "printf 'vcpus\\t%s\\n' \"$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null)\"",
      "printf 'mem_kib\\t%s\\n' \"$(sed -n 's/^MemTotal:[[:space:]]*\\([0-9]*\\).*/\\1/p' /proc/meminfo 2>/dev/null)\"",
      "if [ -n \"$dev\" ]; then",
      "  d=/sys/class/net/$dev",
      "  drv=$(readlink \"$d/device/driver\" 2>/dev/null); printf 'driver\\t%s\\n' \"${drv##*/}\"",
      "  printf 'tx_queues\\t%s\\n' \"$(ls -d \"$d\"/queues/tx-* 2>/dev/null | wc -l)\"",
      "  printf 'mtu\\t%s\\n' \"$(cat \"$d/mtu\" 2>/dev/null)\"",
      // ethtool's whole answer for EthtoolFeatures: exit status, features (stdout), complaints (stderr)
      "  if command -v ethtool >/dev/null 2>&1; then",
      "    e=$(mktemp 2>/dev/null || echo /dev/null)",
      "    out=$(ethtool -k \"$dev\" 2>\"$e\"); printf 'ethtool_exit\\t%s\\n' \"$?\"",
      "    printf '%s\\n' \"$out\" | sed 's/^/ethtool\\t/'",
      "    if [ \"$e\" != /dev/null ]; then sed 's/^/ethtool_stderr\\t/' \"$e\"; rm -f \"$e\"; fi",
      "  else printf 'no_ethtool\\t1\\n'; fi",
      "fi");

  private Preflight() {}

  /**
   * Checks the programs in {@code tools} and finds the interface that routes to {@code peerAddress}
   * ({@code ip -o route get ADDR}) and its receive queues. A missing tool is a fact here, not a failure: see
   * {@link #requireTools}.
   */
  public static HostFacts check(RemoteHost host, Set<String> tools, String peerAddress) throws RemoteFailure {
    return check(host, tools, peerAddress, Map.of());
  }

  /** As {@link #check(RemoteHost, Set, String)} with {@code env} set for the probe (tests: a PATH without ethtool). */
  static HostFacts check(RemoteHost host, Set<String> tools, String peerAddress, Map<String, String> env)
      throws RemoteFailure {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", PROBE, "netpulse-preflight", peerAddress));
    argv.addAll(new java.util.TreeSet<>(tools));
    CommandResult r = host.exec(new RemoteCommand(env, argv), CHECK_TIMEOUT);
    if (r.exit() != 0) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": preflight probe failed (exit " + r.exit()
          + "): " + r.firstLine());
    }
    Map<String, String> versions = new TreeMap<>();
    List<String> missing = new ArrayList<>();
    Map<String, String> facts = new LinkedHashMap<>();
    List<String> ethtool = new ArrayList<>();
    List<String> ethtoolErr = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "tool" -> versions.put(f[1], f.length > 2 ? f[2].strip() : "");
        case "missing" -> missing.add(f[1]);
        case "ethtool" -> ethtool.add(line.substring(Math.min(line.length(), 8))); // sub-features keep their tab
        case "ethtool_stderr" -> ethtoolErr.add(line.substring(Math.min(line.length(), 15)));
        default -> {
          if (f.length == 2) {
            facts.put(f[0], f[1].strip());
          }
        }
      }
    }
    String iface = facts.getOrDefault("iface", "");
    if (iface.isEmpty()) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": no route to the peer address " + peerAddress
          + " (ip -o route get " + peerAddress + " found no device); check the plan's addresses");
    }
    return new HostFacts(host.name(), versions, missing, iface, (int) number(host, facts, "queues"),
        number(host, facts, "nofile"), number(host, facts, "nr_open"), number(host, facts, "file_max"),
        facts.getOrDefault("kernel", ""), facts.getOrDefault("boot_id", "").isEmpty() ? null : facts.get("boot_id"),
        machine(facts, offloads(iface, facts, ethtool, ethtoolErr)));
  }

  /** ethtool's answer as host facts: what it could not say is a note, never a failed preflight. */
  private static EthtoolFeatures.Offloads offloads(String iface, Map<String, String> facts, List<String> ethtool,
      List<String> ethtoolErr) {
    if (facts.containsKey("no_ethtool")) {
      return EthtoolFeatures.NOT_INSTALLED;
    }
    Long exit = optionalNumber(facts.get("ethtool_exit"));
    return EthtoolFeatures.read(iface, exit == null ? -1 : exit.intValue(), ethtool, ethtoolErr);
  }

  /** Provenance facts: read leniently, an unreadable one is unknown rather than a failed preflight. */
  private static Machine machine(Map<String, String> facts, EthtoolFeatures.Offloads offloads) {
    Long vcpus = optionalNumber(facts.get("vcpus"));
    Long tx = optionalNumber(facts.get("tx_queues"));
    Long mtu = optionalNumber(facts.get("mtu"));
    return new Machine(textOrUnknown(facts.get("cpu_model")), vcpus == null ? null : vcpus.intValue(),
        optionalNumber(facts.get("mem_kib")), textOrUnknown(facts.get("driver")), tx == null ? null : tx.intValue(),
        mtu == null ? null : mtu.intValue(), offloads.features(), offloads.note());
  }

  private static String textOrUnknown(String v) {
    return v == null || v.isBlank() ? HostFacts.UNKNOWN : v;
  }

  private static Long optionalNumber(String v) {
    try {
      return v == null ? null : Long.valueOf(v.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static long number(RemoteHost host, Map<String, String> facts, String key) throws RemoteFailure {
    String v = facts.get(key);
    if ("unlimited".equals(v)) {
      return -1;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException | NullPointerException e) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": preflight could not read " + key + " (got '"
          + v + "')");
    }
  }

  /** Fails naming every missing tool and how to get it; silent when all are present. */
  public static void requireTools(HostFacts facts) throws RemoteFailure {
    if (facts.missingTools().isEmpty()) {
      return;
    }
    List<String> lines = new ArrayList<>();
    for (String tool : facts.missingTools()) {
      String debian = "netperf".equals(tool) ? " (Debian: netperf is in non-free)"
          : Packages.debian(tool) == null ? "" : " (Debian package " + Packages.debian(tool) + ")";
      lines.add("host " + facts.host() + ": " + tool + " not found; install it" + debian
          + " or run with --install-tools");
    }
    throw new RemoteFailure(facts.host(), String.join("\n", lines));
  }

  /**
   * --install-tools: apt-get (enabling Debian's non-free component for netperf), else dnf or yum. Needs root (or
   * password-less sudo). A tool without a known package, no package manager, or a failed install is a failure.
   */
  public static void install(RemoteHost host, List<String> missingTools) throws RemoteFailure {
    if (missingTools.isEmpty()) {
      return;
    }
    List<String> unknown = missingTools.stream().filter(t -> Packages.debian(t) == null).toList();
    if (!unknown.isEmpty()) {
      throw new RemoteFailure(host.name(), "host " + host.name() + ": no package known for " + String.join(", ",
          unknown) + "; install " + (unknown.size() == 1 ? "it" : "them") + " by hand");
    }
    List<String> argv = new ArrayList<>(List.of("sh", "-c", Packages.INSTALL_SCRIPT, "netpulse-install"));
    for (String tool : missingTools) {
      argv.add(tool + "=" + Packages.debian(tool) + "=" + Packages.redHat(tool));
    }
    CommandResult r = host.exec(new RemoteCommand(Map.of(), argv), INSTALL_TIMEOUT);
    if (r.exit() != 0) {
      String why = switch (r.exit()) {
        case Packages.EXIT_NOT_ROOT -> "installing needs root or password-less sudo for the SSH user";
        case Packages.EXIT_NO_MANAGER -> "no apt-get, dnf or yum found";
        default -> "the package manager failed: " + TailBuffer.lastLines(r.stdout() + "\n" + r.stderr(), 3);
      };
      throw new RemoteFailure(host.name(), "host " + host.name() + ": cannot install " + String.join(", ",
          missingTools) + ": " + why);
    }
  }
}
