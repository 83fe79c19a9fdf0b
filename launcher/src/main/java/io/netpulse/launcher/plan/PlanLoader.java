package io.netpulse.launcher.plan;

import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import io.netpulse.launcher.plan.YamlTree.ListNode;
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
      List.of("name", "labels", "hosts", "repetitions", "warmup", "stop", "steady", "prepare", "tests");
  static final List<String> HOST_KEYS =
      List.of("address", "user", "port", "identity", "known_hosts", "accept_new_host_keys", "java",
          "source_addresses");
  static final List<String> STEADY_KEYS = List.of("window", "spread", "rise");
  static final List<String> PREPARE_KEYS = List.of("nofile", "nr_open", "file_max", "irq_affinity");
  static final List<String> IRQ_KEYS = List.of("match", "first_cpu", "cpu_step");

  private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final int MAX_PORT = 65535;
  /** Label names become store tags ({@code label_NAME}) and JSON keys: lower-case identifiers. */
  private static final Pattern LABEL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
  static final int MAX_LABELS = 32;
  static final int MAX_LABEL_VALUE_CHARS = 256;

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
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new PlanException(List.of(new PlanError(planFile.toString(), 1, 1,
          "the plan is not UTF-8 text, expected a YAML file in UTF-8")));
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
    return new Plan(Path.of(file), name, hosts, repetitions,
        warmup, stop, steady, prepare, tests, labels(m));
  }

  /** {@code labels:}: free-form name → text, e.g. instance_type: c7.large; numbers are taken as their text. */
  private Map<String, String> labels(MapNode plan) {
    Map<String, String> labels = new LinkedHashMap<>();
    Node n = r.value(plan, "labels");
    MapNode m = n == null ? null : r.mapping(n, "labels");
    if (m == null) {
      return labels;
    }
    if (m.entries().size() > MAX_LABELS) {
      r.error(m.at(), "labels has " + m.entries().size() + " entries, expected at most " + MAX_LABELS);
    }
    for (YamlTree.Entry e : m.entries().values()) {
      String where = "label '" + Addresses.printable(e.key()) + "'";
      if (!LABEL_NAME.matcher(e.key()).matches()) {
        r.error(e.keyAt(), where + ": a label's name is lower-case letters, digits and '_', starting with a letter "
            + "(at most 63), e.g. instance_type");
        continue;
      }
      String value = r.text(e.value(), where);
      if (value == null) {
        continue;
      }
      if (value.length() > MAX_LABEL_VALUE_CHARS) {
        r.error(e.value().at(), where + " is " + value.length() + " characters long, expected at most "
            + MAX_LABEL_VALUE_CHARS);
        continue;
      }
      labels.put(e.key(), value.strip());
    }
    return labels;
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
      if (java != null && ArgumentCheck.programProblem(java) != null) {
        r.error(r.value(h, "java").at(), where + " java '" + java + "' " + ArgumentCheck.programProblem(java)
            + ", expected the path of a java program, e.g. /usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        java = null;
      }
      List<String> sources = sourceAddresses(h, where);
      hosts.put(name, new HostSpec(name, address, user, port, path(identity),
          knownHosts == null ? Path.of(System.getProperty("user.home"), ".ssh", "known_hosts") : path(knownHosts),
          acceptNew, java, sources));
    }
    return hosts;
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
        r.irqAffinity(m, "prepare"));
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
    Map<String, Integer> named = new java.util.HashMap<>();
    for (Node item : list.items()) {
      index++;
      TestSpec t = new TestReader(r, index, hosts, repetitions, warmup).read(item);
      if (t == null) {
        continue;
      }
      // results are keyed plan/test/metric: two tests of one name would overwrite each other's
      Integer earlier = named.putIfAbsent(t.name(), index);
      if (earlier != null) {
        r.error(item.at(), "test " + index + ": name '" + Addresses.printable(t.name()) + "' is test " + earlier
            + "'s already; results are kept per test name, so give one of them a name of its own, e.g. name: "
            + t.type().yamlName() + "-" + index);
      }
      tests.add(t);
    }
    return tests;
  }
}
