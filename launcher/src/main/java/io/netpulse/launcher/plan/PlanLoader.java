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
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Loads and validates a plan file. Every problem is collected with {@code file:line:column} before
 * anything starts; {@link PlanException} carries them all. Defaults follow the seeds.
 */
public final class PlanLoader {

  static final List<String> PLAN_KEYS =
      List.of("name", "labels", "hosts", "repetitions", "warmup", "stop", "steady", "prepare", "tests");
  static final List<String> HOST_KEYS = HostsReader.HOST_KEYS;
  static final List<String> STEADY_KEYS = List.of("criterion", "window", "spread", "rise", "precision", "min_measure");
  static final List<String> PREPARE_KEYS = List.of("nofile", "nr_open", "file_max", "irq_affinity");
  static final List<String> IRQ_KEYS = List.of("match", "first_cpu", "cpu_step");

  /** Label names become store tags ({@code label_NAME}) and JSON keys: lower-case identifiers. */
  private static final Pattern LABEL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
  static final int MAX_LABELS = 32;
  static final int MAX_LABEL_VALUE_CHARS = 256;

  private final String file;
  private final Path baseDir;
  private final PlanReader r;


  private PlanLoader(String file, Path baseDir, List<PlanError> errors, Consumer<PlanError> warnings) {
    this.file = file;
    this.baseDir = baseDir;
    this.r = new PlanReader(file, errors, warnings);
  }

  /** {@link #load(Path, Consumer)} with warnings (deprecated keys) printed to stderr, one line each. */
  public static Plan load(Path planFile) throws PlanException {
    return load(planFile, w -> System.err.println(w.describe()));
  }

  /**
   * Reads and validates {@code planFile}; relative key paths resolve against its directory. {@code warnings} gets
   * what still works but should be written otherwise (deprecated keys), as {@code file:line:column: warning: ...}.
   */
  public static Plan load(Path planFile, Consumer<PlanError> warnings) throws PlanException {
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
    return parse(planFile.toString(), dir, text, warnings);
  }

  /** Validates plan text; {@code fileName} is used in messages, {@code baseDir} for relative paths. */
  public static Plan parse(String fileName, Path baseDir, String text) throws PlanException {
    return parse(fileName, baseDir, text, w -> System.err.println(w.describe()));
  }

  /** {@link #parse(String, Path, String)}, with warnings given to {@code warnings}. */
  public static Plan parse(String fileName, Path baseDir, String text, Consumer<PlanError> warnings)
      throws PlanException {
    List<PlanError> errors = new ArrayList<>();
    Node root;
    try {
      root = YamlTree.read(fileName, text, errors);
    } catch (YamlTree.SyntaxError e) {
      errors.add(new PlanError(fileName, e.at.line(), e.at.column(), e.getMessage()));
      throw new PlanException(errors);
    }
    Plan plan = new PlanLoader(fileName, baseDir, errors, warnings).plan(root);
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
    Map<String, HostSpec> hosts = new HostsReader(r, baseDir).hosts(m);
    int repetitions = r.integer(m, "repetitions", "the plan", 3, 1, 1000);
    Duration warmup = r.duration(m, "warmup", "the plan", Duration.ofSeconds(5), true);
    StopMode stop = r.choice(m, "stop", "the plan", StopMode.STEADY, List.of("steady", "fixed"),
        s -> StopMode.valueOf(s.toUpperCase(Locale.ROOT)));
    SteadySpec steady = steady(m);
    PrepareSpec prepare = prepare(m);
    List<TestSpec> tests = tests(m, hosts, repetitions, warmup, steady);
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

  private SteadySpec steady(MapNode plan) {
    return steady(r, plan, "steady", SteadySpec.DEFAULT);
  }

  /**
   * The {@code steady:} mapping of {@code owner} (the plan, or a test that overrides some of the plan's), each key
   * it does not give taken from {@code defaults}.
   */
  static SteadySpec steady(PlanReader r, MapNode owner, String where, SteadySpec defaults) {
    Node n = r.value(owner, "steady");
    MapNode m = n == null ? null : r.mapping(n, where);
    if (m == null) {
      return defaults;
    }
    r.onlyKeys(m, STEADY_KEYS, where);
    SteadySpec d = defaults;
    SteadySpec.Criterion criterion = r.choice(m, "criterion", where, d.criterion(),
        java.util.Arrays.stream(SteadySpec.Criterion.values()).map(SteadySpec.Criterion::yamlName).toList(),
        c -> SteadySpec.Criterion.valueOf(c.toUpperCase(java.util.Locale.ROOT)));
    return new SteadySpec(r.duration(m, "window", where, d.window(), false),
        r.percent(m, "spread", where, d.spreadPercent()), r.percent(m, "rise", where, d.risePercent()),
        criterion, r.percent(m, "precision", where, d.precisionPercent()),
        r.duration(m, "min_measure", where, d.minMeasure(), true));
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

  private List<TestSpec> tests(MapNode plan, Map<String, HostSpec> hosts, int repetitions, Duration warmup,
      SteadySpec steady) {
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
      TestSpec t = new TestReader(r, index, hosts, repetitions, warmup, steady).read(item);
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
