package io.netpulse.launcher.plan;

import io.netpulse.collector.SshAgent;
import io.netpulse.collector.SshHostConfig;
import io.netpulse.launcher.plan.YamlTree.ListNode;
import io.netpulse.launcher.plan.YamlTree.Location;
import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The plan's {@code hosts:}: each host's SSH address and login, where its test traffic goes ({@code test_address})
 * and the bastions SSH goes through ({@code proxy_jump}, OpenSSH's -J: resolved once every host is read, since a
 * bastion may be another host entry, written before or after). An {@code address} that a {@code Host} block of the
 * host's OpenSSH configuration ({@code ssh_config}, default ~/.ssh/config) matches takes HostName, User, Port,
 * IdentityFile, ProxyJump and IdentityAgent from it, unless the plan gives that value itself.
 */
final class HostsReader {

  static final List<String> HOST_KEYS =
      List.of("address", "test_address", "user", "port", "identity", "known_hosts", "host_key_policy",
          "proxy_jump", "java", "source_addresses", "ssh_config");

  /** The inventory's spelling, which plans share; accept_new_host_keys: true is its deprecated plan-only form. */
  /** Old spellings still read (with a warning) for one release. */
  static final List<String> DEPRECATED_HOST_KEYS = List.of("accept_new_host_keys");

  static final List<String> HOST_KEY_POLICIES = List.of("strict", "accept-new");

  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
  private static final int MAX_PORT = 65535;
  private static final String JUMP_FORM = "expected the name of another host of the plan or user@host[:port], "
      + "e.g. bastion or ubuntu@203.0.113.7:22";

  private final PlanReader r;
  private final Path baseDir;
  private final SshConfigs sshConfigs;
  /** Host → "FILE line N" of the ProxyJump its hops came from, when the plan gives no proxy_jump. */
  private final Map<String, String> jumpOrigins = new LinkedHashMap<>();

  HostsReader(PlanReader r, Path baseDir) {
    this.r = r;
    this.baseDir = baseDir;
    this.sshConfigs = new SshConfigs(r);
  }

  Map<String, HostSpec> hosts(MapNode plan) {
    Map<String, HostSpec> hosts = new LinkedHashMap<>();
    Map<String, List<PlanReader.Located>> jumps = new LinkedHashMap<>();
    jumpOrigins.clear();
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
      r.onlyKeys(h, HOST_KEYS, DEPRECATED_HOST_KEYS, where);
      String address = address(h, "address", where, true);
      String testAddress = address(h, "test_address", where, false);
      String configFile = r.text(h, "ssh_config", where, null);
      YamlTree.Location configAt = r.value(h, "ssh_config") != null ? r.value(h, "ssh_config").at()
          : r.value(h, "address") != null ? r.value(h, "address").at() : h.at();
      SshHostConfig ssh = sshConfigs.lookup(name, address, configFile == null ? null
          : configFile.equals(SshConfigs.NONE) ? Path.of(SshConfigs.NONE) : path(configFile), configAt, where);
      List<String> fromConfig = new ArrayList<>(List.of("HostName", "IdentityAgent"));
      if (ssh.hostName() != null && Addresses.problem(ssh.hostName()) != null) {
        r.error(configAt, where + " address " + address + ": HostName '" + Addresses.printable(ssh.hostName())
            + "' of " + ssh.origins().get("HostName") + ": " + Addresses.problem(ssh.hostName()));
      }
      String user = r.text(h, "user", where, null);
      if (user != null && ArgumentCheck.userProblem(user) != null) {
        r.error(r.value(h, "user").at(), where + " user '" + Addresses.printable(user) + "' "
            + ArgumentCheck.userProblem(user));
      } else if (user == null && ssh.user() != null) {
        user = ssh.user();
        fromConfig.add("User");
        if (ArgumentCheck.userProblem(user) != null) {
          r.error(configAt, where + ": User '" + Addresses.printable(user) + "' of " + ssh.origins().get("User") + " "
              + ArgumentCheck.userProblem(user));
        }
      }
      user = user == null ? "root" : user;
      int port = r.integer(h, "port", where, ssh.port() == null ? 22 : ssh.port(), 1, MAX_PORT);
      if (r.value(h, "port") == null && ssh.port() != null) {
        fromConfig.add("Port");
      }
      String identity = r.text(h, "identity", where, null);
      Path configIdentity = null;
      if (identity == null && ssh.identity() != null) {
        fromConfig.add("IdentityFile");
        try {
          configIdentity = ssh.readableIdentity();
        } catch (IllegalArgumentException bad) {
          r.error(configAt, where + " address " + address + ": " + bad.getMessage());
        }
      }
      String knownHosts = r.text(h, "known_hosts", where, null);
      boolean acceptNew = hostKeyPolicy(h, where);
      String java = r.text(h, "java", where, null);
      if (java != null && ArgumentCheck.programProblem(java) != null) {
        r.error(r.value(h, "java").at(), where + " java '" + java + "' " + ArgumentCheck.programProblem(java)
            + ", expected the path of a java program, e.g. /usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        java = null;
      }
      List<String> sources = sourceAddresses(h, where);
      List<PlanReader.Located> jump = r.texts(h, "proxy_jump", where);
      if (jump == null && ssh.proxyJump() != null && !ssh.proxyJump().isEmpty()) {
        jump = List.of(new PlanReader.Located(String.join(",", ssh.proxyJump()), configAt));
        fromConfig.add("ProxyJump");
        jumpOrigins.put(name, ssh.proxyJumpAt());
      }
      if (jump != null) {
        jumps.put(name, jump);
      }
      hosts.put(name, new HostSpec(name, address == null ? null : ssh.address(), user, port,
          identity != null ? path(identity) : configIdentity,
          knownHosts == null ? Path.of(System.getProperty("user.home"), ".ssh", "known_hosts") : path(knownHosts),
          acceptNew, java, sources, testAddress, List.of(), SshAgent.socket(ssh.identityAgent()),
          ssh.describe(fromConfig).isEmpty() ? "" : "'" + address + "': " + ssh.describe(fromConfig)));
    }
    Map<String, List<HostSpec>> resolved = new LinkedHashMap<>();
    for (String name : jumps.keySet()) {
      jumpPath(name, hosts, jumps, new ArrayDeque<>(), resolved);
    }
    resolved.forEach((name, path) -> hosts.put(name, hosts.get(name).withProxyJump(path)));
    return hosts;
  }

  private String address(MapNode h, String key, String where, boolean required) {
    Node node = required ? r.required(h, key, where, "an IP literal or a host name") : r.value(h, key);
    String address = r.text(node, where + " " + key);
    if (address != null) {
      String problem = Addresses.problem(address);
      if (problem != null) {
        r.error(node.at(), where + " " + key + ": " + problem + ", expected an IP literal or a host name");
        return null;
      }
    }
    return address;
  }

  /**
   * {@code name}'s hops in order, memoised in {@code done}: a host entry named as a hop brings its own proxy_jump
   * first, as OpenSSH does with a jump host's ProxyJump; {@code visiting} catches a loop.
   */
  private List<HostSpec> jumpPath(String name, Map<String, HostSpec> hosts, Map<String, List<PlanReader.Located>> refs,
      Deque<String> visiting, Map<String, List<HostSpec>> done) {
    if (done.containsKey(name) || !refs.containsKey(name)) {
      return done.getOrDefault(name, List.of());
    }
    visiting.push(name);
    HostSpec self = hosts.get(name);
    String where = "host '" + name + "' " + (jumpOrigins.containsKey(name) ? "ProxyJump (" + jumpOrigins.get(name)
        + ")" : "proxy_jump");
    List<HostSpec> path = new ArrayList<>();
    for (PlanReader.Located l : refs.get(name)) {
      for (String part : l.text().split(",", -1)) {
        String hop = part.strip();
        if (hop.isEmpty()) {
          r.error(l.at(), where + " has an empty entry in '" + Addresses.printable(l.text()) + "', " + JUMP_FORM);
        } else if (hop.equals(name)) {
          r.error(l.at(), where + " names the host itself, " + JUMP_FORM);
        } else if (hosts.containsKey(hop)) {
          if (visiting.contains(hop)) {
            List<String> loop = new ArrayList<>(visiting);
            java.util.Collections.reverse(loop);
            loop = loop.subList(loop.indexOf(hop), loop.size());
            r.error(l.at(), where + ": '" + hop + "' leads back here (" + String.join(" -> ", loop) + " -> " + hop
                + "), expected bastions that do not go through each other");
            continue;
          }
          path.addAll(jumpPath(hop, hosts, refs, visiting, done));
          path.add(hosts.get(hop).withProxyJump(List.of()));
        } else if (!hop.contains("@") && !hop.contains(":") && !hop.contains(".") && !sshConfigs.knows(name, hop)) {
          String near = Suggestions.closest(hop, hosts.keySet());
          r.error(l.at(), where + ": '" + Addresses.printable(hop) + "' is not a host of the plan"
              + (near != null ? ", did you mean '" + near + "'?" : ",") + " " + JUMP_FORM);
        } else {
          List<HostSpec> outside = outside(hop, self, l.at(), where);
          if (outside != null) {
            path.addAll(outside);
          }
        }
      }
    }
    visiting.pop();
    done.put(name, List.copyOf(path));
    return path;
  }

  /**
   * A bastion outside the plan, {@code [user@]host[:port]} ({@code [v6]:port} for IPv6), as the host's OpenSSH
   * configuration resolves it (see {@link SshConfigs#outside}), with the bastions its ProxyJump names first.
   */
  private List<HostSpec> outside(String text, HostSpec self, Location at, String where) {
    String user = null;
    String rest = text;
    int userEnd = text.lastIndexOf('@');
    if (userEnd >= 0) {
      user = text.substring(0, userEnd);
      rest = text.substring(userEnd + 1);
      String problem = user.isEmpty() ? "is empty" : ArgumentCheck.userProblem(user);
      if (problem != null) {
        r.error(at, where + ": the user of '" + Addresses.printable(text) + "' " + problem + ", " + JUMP_FORM);
        return null;
      }
    }
    String host = rest;
    String port = null;
    if (rest.startsWith("[")) {
      int close = rest.indexOf(']');
      String after = close < 0 ? "?" : rest.substring(close + 1);
      if (close < 0 || !(after.isEmpty() || after.startsWith(":"))) {
        r.error(at, where + ": '" + Addresses.printable(text) + "' has an unclosed or misplaced ']', " + JUMP_FORM);
        return null;
      }
      host = rest.substring(1, close);
      port = after.isEmpty() ? null : after.substring(1);
    } else if (rest.indexOf(':') >= 0 && rest.indexOf(':') == rest.lastIndexOf(':')) {
      host = rest.substring(0, rest.indexOf(':'));
      port = rest.substring(rest.indexOf(':') + 1);
    }
    String problem = Addresses.problem(host);
    if (problem != null) {
      r.error(at, where + ": '" + Addresses.printable(text) + "': " + problem + ", " + JUMP_FORM);
      return null;
    }
    Integer portNumber = null;
    if (port != null) {
      portNumber = PORT.matcher(port).matches() ? Integer.parseInt(port) : -1;
      if (portNumber < 1 || portNumber > MAX_PORT) {
        r.error(at, where + ": the port of '" + Addresses.printable(text) + "' is not a number from 1 to " + MAX_PORT
            + ", " + JUMP_FORM);
        return null;
      }
    }
    return self == null ? null : sshConfigs.outside(self, text, user, host, portNumber, at, where);
  }

  /** IP literals only: the client binds to them, and a name could resolve to an address the host lacks. */
  private List<String> sourceAddresses(MapNode h, String where) {
    List<String> sources = new ArrayList<>();
    Node n = r.value(h, "source_addresses");
    if (n instanceof ListNode l && l.items().isEmpty()) {
      r.error(n.at(), where + " source_addresses is an empty list, expected IP addresses of this host, or no "
          + "source_addresses (the kernel's choice)");
      return sources;
    }
    List<PlanReader.Located> refs = r.texts(h, "source_addresses", where);
    if (refs == null) {
      return sources;
    }
    for (PlanReader.Located l : refs) {
      String a = l.text();
      boolean literal = Addresses.problem(a) == null && (a.contains(":") || a.matches("[0-9.]+"));
      if (!literal) {
        r.error(l.at(), where + " source_addresses: '" + Addresses.printable(a) + "' is not an IP literal, expected "
            + "addresses of this host to connect from, e.g. [198.18.0.1, 198.18.0.11]");
      } else if (sources.contains(a)) {
        r.error(l.at(), where + " source_addresses lists " + a + " twice, expected each address once");
      } else {
        sources.add(a);
      }
    }
    return sources;
  }

  private Path path(String text) {
    if (text == null) {
      return null;
    }
    Path p = Path.of(text.startsWith("~/") ? System.getProperty("user.home") + text.substring(1) : text);
    return baseDir == null || p.isAbsolute() ? p : baseDir.resolve(p).normalize();
  }

  /** True for {@code host_key_policy: accept-new} or the deprecated {@code accept_new_host_keys: true} (warned). */
  private boolean hostKeyPolicy(MapNode h, String where) {
    Node old = r.value(h, "accept_new_host_keys");
    Node policy = r.value(h, "host_key_policy");
    if (old != null && policy != null) {
      r.error(old.at(), where + " has both host_key_policy and accept_new_host_keys (its old spelling): keep "
          + "host_key_policy only");
      return false;
    }
    if (old != null) {
      boolean acceptNew = r.bool(h, "accept_new_host_keys", where, false);
      r.warn(old.at(), where + " accept_new_host_keys is deprecated and will be removed in the next release; write "
          + "host_key_policy: " + (acceptNew ? "accept-new" : "strict") + " (as inventories do)");
      return acceptNew;
    }
    return r.choice(h, "host_key_policy", where, "strict", HOST_KEY_POLICIES, t -> t).equals("accept-new");
  }
}
