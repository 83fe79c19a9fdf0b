package io.netpulse.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries, read from every module's main sources (so that one test sees them all, whatever was built):
 * no cycle among the io.netpulse packages, since a package that needs one that needs it cannot be moved, tested or
 * understood alone (cli↔stack, cli↔report and plan↔procedure were such cycles); the runner (launcher) without
 * picocli, whose commands are the cli module's; common the event contract, starting no broker or store. A package
 * depends on another when its code names a type of it: an import (also static or with *) or a qualified name in the
 * code; Javadoc and strings do not count.
 */
@Tag("unit")
class PackageCyclesTest {

  /** A qualified io.netpulse name up to its first type (capitalised) or a wildcard: the package is group 1. */
  private static final Pattern QUALIFIED = Pattern.compile("\\b(io\\.netpulse(?:\\.[a-z_][a-z0-9_]*)*)\\.(?:[A-Z]|\\*)");
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

  @Test
  void noCycleAmongTheNetpulsePackages() throws IOException {
    Path root = TierTagsContractTest.repositoryRoot();
    Map<String, Map<String, String>> graph = new TreeMap<>();
    for (Path file : mainSources(root)) {
      String code = TierTagsContractTest.withoutCommentsAndStrings(Files.readString(file));
      Matcher pkg = PACKAGE.matcher(code);
      if (!pkg.find()) {
        continue;
      }
      Map<String, String> deps = graph.computeIfAbsent(pkg.group(1), k -> new TreeMap<>());
      for (String dep : dependencies(code)) {
        if (!dep.equals(pkg.group(1))) {
          deps.putIfAbsent(dep, root.relativize(file).toString());
        }
      }
    }
    // a wrong root would find nothing and pass: the repository has over thirty packages
    assertThat(graph).as("packages found under " + root).hasSizeGreaterThan(30);
    List<String> problems = new ArrayList<>();
    for (Set<String> cycle : cycles(graph)) {
      StringBuilder why = new StringBuilder("cycle among " + cycle + ":");
      for (String from : cycle) {
        graph.get(from).forEach((to, file) -> {
          if (cycle.contains(to)) {
            why.append("\n    ").append(from).append(" -> ").append(to).append(" (e.g. ").append(file).append(')');
          }
        });
      }
      problems.add(why.toString());
    }
    assertThat(problems).as("package cycles in the main sources").isEmpty();
  }

  @Test
  void theRunnerDoesNotUsePicocli() throws IOException {
    assertThat(filesNaming(TierTagsContractTest.repositoryRoot().resolve("launcher"), Pattern.compile("\\bpicocli\\.")))
        .as("launcher main sources naming picocli (commands and options belong in the cli module)").isEmpty();
  }

  @Test
  void commonStartsNoBrokerOrStore() throws IOException {
    Pattern embedded = Pattern.compile("\\b(?:io\\.questdb|kafka\\.server|org\\.apache\\.kafka\\.(?:server|raft|metadata))\\.");
    assertThat(filesNaming(TierTagsContractTest.repositoryRoot().resolve("common"), embedded))
        .as("common main sources naming the broker's or QuestDB's classes (those are the testbed module's)").isEmpty();
  }

  @Test
  void theCheckSeesWhatItMustRefuse() {
    String code = TierTagsContractTest.withoutCommentsAndStrings("""
        package io.netpulse.a;
        import io.netpulse.b.B;
        import static io.netpulse.c.C.make;
        import io.netpulse.d.*;
        /** not {@link io.netpulse.e.E} */
        class A { Object x = new io.netpulse.f.g.F(); String s = "io.netpulse.h.H"; }
        """);
    assertThat(dependencies(code)).containsExactlyInAnyOrder("io.netpulse.b", "io.netpulse.c", "io.netpulse.d",
        "io.netpulse.f.g");
    Map<String, Map<String, String>> graph = Map.of(
        "a", Map.of("b", "A"), "b", Map.of("c", "B"), "c", Map.of("a", "C", "d", "C"), "d", Map.of(),
        "e", Map.of("e", "E"), "f", Map.of("a", "F"));
    assertThat(cycles(graph)).containsExactly(Set.of("a", "b", "c"));
    assertThat(cycles(Map.of("a", Map.of("b", "A"), "b", Map.of()))).isEmpty();
  }

  static Set<String> dependencies(String codeWithoutComments) {
    Set<String> deps = new TreeSet<>();
    Matcher m = QUALIFIED.matcher(codeWithoutComments);
    while (m.find()) {
      deps.add(m.group(1));
    }
    return deps;
  }

  /** The strongly connected components of more than one package (Tarjan's algorithm), each sorted. */
  static List<Set<String>> cycles(Map<String, Map<String, String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    List<Set<String>> found = new ArrayList<>();
    for (String start : new TreeSet<>(graph.keySet())) {
      if (!index.containsKey(start)) {
        connect(start, graph, index, low, stack, found);
      }
    }
    return found;
  }

  private static void connect(String v, Map<String, Map<String, String>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, List<Set<String>> found) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    for (String w : new TreeSet<>(graph.getOrDefault(v, Map.of()).keySet())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, found);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        found.add(component);
      }
    }
  }

  /** Every .java file under a src/main/java of any module, build output and VCS metadata left out. */
  static List<Path> mainSources(Path root) throws IOException {
    return TierTagsContractTest.javaSources(root, "src/main/java/");
  }

  private static List<String> filesNaming(Path module, Pattern name) throws IOException {
    List<String> naming = new ArrayList<>();
    List<Path> sources = mainSources(module);
    assertThat(sources).as("main sources under " + module).isNotEmpty();
    for (Path file : sources) {
      if (name.matcher(TierTagsContractTest.withoutCommentsAndStrings(Files.readString(file))).find()) {
        naming.add(module.relativize(file).toString());
      }
    }
    return naming;
  }
}
