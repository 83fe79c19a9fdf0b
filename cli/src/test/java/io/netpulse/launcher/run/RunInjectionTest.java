package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.launcher.remote.RemoteHosts;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.testkit.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile plan values (';', {@code $( )}, backticks, quotes, pipes, a newline) in every plan field that
 * reaches a remote command line: each is either refused at load with file:line:column, or reaches the
 * host as one argument (a program of that exact name is looked for, or runs and records its argv). The
 * namespaces share this file system, so a {@code touch} that ran on a host would leave its file here.
 */
@Tag("root")
class RunInjectionTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  private final String id = UUID.randomUUID().toString();
  /** The file any injected command would create. */
  private final Path pwned = Path.of("/tmp/np-pwned-" + id);

  @AfterEach
  void nothingRanAndNothingIsLeft() throws Exception {
    try (Stream<Path> tmp = Files.list(Path.of("/tmp"))) {
      assertThat(tmp.map(Path::toString).filter(p -> p.startsWith(pwned.toString())).toList())
          .as("files created by injected commands").isEmpty();
    }
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** Payloads that each run {@code touch} if a shell ever parses them. */
  private List<String> hostile() {
    String t = "touch " + pwned;
    return List.of("x; " + t, "$(" + t + ")", "`" + t + "`", "x' ; " + t + " ; '", "x\" ; " + t + " ; \"",
        "x | " + t + " && " + t);
  }

  @Test
  void valuesThatCanOnlyBeAttacksAreRefusedAtLoadWithTheirPosition() throws Exception {
    String t = "touch " + pwned;
    String sut = HOSTS.sut().address();
    List<String> lines = new ArrayList<>(List.of("name: injection-load", "hosts:"));
    Map<Integer, String> expected = new HashMap<>(); // line → "line:column: fragment"
    lines.add(host("sut", sut, ""));
    lines.add(host("peer", HOSTS.peer().address(), ""));
    hostile(lines, expected, "  a: { address: ", sut + "; " + t, host(null, null, "") + " }", "is neither an IP literal");
    hostile(lines, expected, "  b: { address: ", "$(" + t + ")", host(null, null, "") + " }", "is neither an IP literal");
    hostile(lines, expected, "  c: { address: ", sut + "\n" + t, host(null, null, "") + " }", "contains a line break");
    hostile(lines, expected, "  d: { address: " + sut + ", user: ", "root; " + t,
        ", identity: " + HOSTS.identity() + " }", "is not a user name");
    hostile(lines, expected, "  e: { address: " + sut + ", java: ", "-x; " + t, host(null, null, "") + " }",
        "java '-x; " + t + "' starts with '-'");
    hostile(lines, expected, "  f: { address: " + sut + ", java: ", "J=$(" + t + ")", host(null, null, "") + " }",
        "contains '='");
    lines.add("prepare:");
    hostile(lines, expected, "  irq_affinity: { match: ", "virtio\n" + t, " }", "contains a line break");
    lines.add("tests:");
    hostile(lines, expected, "  - { type: iperf_bandwidth, duration: 2s, rate: ", "1M; " + t, " }",
        "expected a bit rate");
    hostile(lines, expected, "  - { type: concurrent_connections, tool: c1000k, clients: [peer], c1000k_dir: ",
        "--help; " + t, " }", "starts with '-'");
    hostile(lines, expected, "  - { type: concurrent_connections, tool: c1000k, clients: [peer], c1000k_dir: ",
        "d=`" + t + "`", " }", "contains '='");
    hostile(lines, expected, "  - { type: latency, name: ", "n\n" + t, " }", "contains a line break");
    Path plan = dir.resolve("injection-load.yaml");
    Files.writeString(plan, String.join("\n", lines) + "\n");

    RunEndToEndTest.Run r = RunEndToEndTest.run(plan);
    assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
    assertThat(r.stderr()).contains("nothing was started").doesNotContain("Exception");
    for (String at : expected.values()) {
      String prefix = plan + ":" + at.substring(0, at.indexOf(' '));
      String fragment = at.substring(at.indexOf(' ') + 1);
      assertThat(r.stderr().lines().filter(l -> l.startsWith(prefix + ": ")).toList()).as(prefix + " in " + r.stderr())
          .anySatisfy(l -> assertThat(l).contains(fragment));
    }
  }

  @Test
  void valuesThatLoadReachTheHostsAsOneArgumentEach() throws Exception {
    // a directory whose name holds every payload at once, with stand-ins for c1000k and java that record their argv
    String evil = "d " + String.join(" ", hostile()).replace("\n", " ");
    Path evilDir = Files.createDirectories(dir.resolve(evil));
    script(evilDir.resolve("server"), "exec sleep 600");
    // holds on like c1000k's client does: one that exits at once leaves a measuring window shorter than a sampler tick
    script(evilDir.resolve("client"), "exec sleep 600");
    script(evilDir.resolve("java"), "exec java \"$@\"");

    StringBuilder hosts = new StringBuilder();
    hosts.append(host("evilpath", HOSTS.sut().address(), ", java: " + yamlQuoted(evilDir.resolve("java").toString())))
        .append('\n');
    List<String> tests = new ArrayList<>();
    List<String> hostile = hostile();
    for (int i = 0; i < hostile.size(); i++) {
      hosts.append(host("evil" + i, HOSTS.sut().address(), ", java: " + yamlQuoted(hostile.get(i)))).append('\n');
      tests.add(connections("java-" + i, "evil" + i, ""));
      tests.add(connections("c1000k-" + i, "sut", ", tool: c1000k, c1000k_dir: " + yamlQuoted(hostile.get(i))));
    }
    tests.add(connections("c1000k-evil-dir", "sut", ", tool: c1000k, c1000k_dir: " + yamlQuoted(evilDir.toString())));
    tests.add(connections("java-evil-path", "evilpath", ""));
    String evilName = "n; " + String.join(" ", hostile.subList(1, hostile.size()));
    tests.add("{ type: latency, name: " + yamlQuoted(evilName) + ", duration: 1s, ping_count: 2 }");
    Path plan = TestPlans.writeWithHosts(dir, HOSTS, "injection-run", hosts.toString().stripTrailing(),
        "repetitions: 1\nstop: fixed\nwarmup: 0s\nprepare: { irq_affinity: { match: " + yamlQuoted(hostile.get(0))
            + " } }",
        tests.toArray(String[]::new));

    RunEndToEndTest.Run r = RunEndToEndTest.run(plan, SharedPipeline.get().runArgs("--result-timeout=30"));
    assertThat(r.exit()).as("some tests cannot run: " + r.stderr()).isEqualTo(1);
    Map<String, JsonNode> byTest = new HashMap<>();
    Json.mapper().readTree(r.stdout()).forEach(n -> byTest.merge(n.path("test").asText(), n,
        (a, b) -> a.has("error") ? a : b));
    for (int i = 0; i < hostile.size(); i++) {
      // looked up on the host under exactly that name
      assertThat(error(byTest, "java-" + i)).startsWith("host evil" + i + ": " + hostile.get(i) + " not found");
      assertThat(error(byTest, "c1000k-" + i)).startsWith("host sut: " + hostile.get(i) + "/server not found");
    }
    // the stand-ins ran from the hostile directory with exactly the arguments the procedure gives
    String sut = HOSTS.sut().address();
    assertThat(Files.readAllLines(evilDir.resolve("server.args"))).containsExactly(evilDir.resolve("server").toString(),
        "2000");
    assertThat(Files.readAllLines(evilDir.resolve("client.args"))).containsExactly(evilDir.resolve("client").toString(),
        sut, "2000");
    assertThat(byTest.get("c1000k-evil-dir")).as(r.stdout()).isNotNull();
    assertThat(byTest.get("c1000k-evil-dir").has("error")).as(r.stdout()).isFalse();
    List<String> javaArgs = Files.readAllLines(evilDir.resolve("java.args"));
    assertThat(javaArgs).first().isEqualTo(evilDir.resolve("java").toString());
    assertThat(javaArgs).containsSequence("-jar", ".netpulse/netpulse-holder.jar", "server");
    assertThat(byTest.get("java-evil-path").path("mean").asDouble()).as(r.stdout()).isGreaterThanOrEqualTo(10);
    // the test name went through Kafka, the processor and the report unchanged
    assertThat(byTest.get(evilName)).as(r.stdout()).isNotNull();
    assertThat(byTest.get(evilName).path("mean").asDouble()).isPositive();
  }

  @Test
  void remoteStartPassesEveryByteOfEachArgument() throws Exception {
    List<String> values = new ArrayList<>(hostile());
    values.addAll(List.of("", " ", "'", "\"", "\\", "\\n", "a\tb", "$HOME", "~", "*", "%s %d", "-n", "--", "ünïcødé €",
        "two\nlines"));
    // (a lone CR is not here: output is read line by line, and a reader ends a line at CR as at LF)
    List<String> argv = new ArrayList<>(List.of("%s\\n"));
    argv.addAll(values);
    HostSpec spec = new HostSpec("sut", HOSTS.sut().address(), HOSTS.user(), TestHosts.SSH_PORT, HOSTS.identity(),
        HOSTS.knownHosts(), false, null);
    List<String> lines = new CopyOnWriteArrayList<>();
    try (RemoteHosts hosts = RemoteHosts.connect(List.of(spec), Duration.ofSeconds(10))) {
      RemoteProcess p = hosts.host("sut").start("printf", RemoteCommand.of("printf", argv.toArray()), lines::add);
      OptionalInt exit = p.awaitExit(Duration.ofSeconds(30));
      assertThat(exit).as(p.stderr()).hasValue(0);
      String expected = values.stream().map(v -> v + "\n").reduce("", String::concat);
      assertThat(p.stdout()).isEqualTo(expected);
      assertThat(String.join("\n", lines)).isEqualTo(expected.substring(0, expected.length() - 1));
    }
  }

  private String connections(String name, String sut, String extra) {
    String cap = extra.contains("tool: c1000k") ? "" : " target: 10,"; // c1000k has no cap: it connects until it fails
    return "{ type: concurrent_connections, name: " + name + ", sut: " + sut + ", clients: [peer]," + cap
        + " listeners: 1, duration: 3s" + extra + " }";
  }

  /** A shell script that writes "$0" and its arguments, one a line, to NAME.args next to itself, then runs {@code then}. */
  private static void script(Path file, String then) throws IOException {
    Files.writeString(file, "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > \"$0.args\"\n" + then + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A host entry line for this machine's test hosts; with a null name only the part after the address. */
  private static String host(String name, String address, String extra) {
    String keys = ", user: " + HOSTS.user() + ", identity: " + HOSTS.identity() + ", known_hosts: " + HOSTS.knownHosts();
    return name == null ? keys : "  " + name + ": { address: " + address + keys + extra + " }";
  }

  /** Adds {@code before + "VALUE" + after} as a plan line, expecting an error at the value's line and column. */
  private static void hostile(List<String> lines, Map<Integer, String> expected, String before, String value,
      String after, String fragment) {
    lines.add(before + yamlQuoted(value) + after);
    int line = lines.size();
    expected.put(line, line + ":" + (before.length() + 1) + " " + fragment);
  }

  /** A YAML double-quoted scalar: only backslash, double quote and line breaks need escapes. */
  static String yamlQuoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r")
        .replace("\t", "\\t") + "\"";
  }

  private static String error(Map<String, JsonNode> byTest, String test) {
    JsonNode n = byTest.get(test);
    assertThat(n).as(test).isNotNull();
    return n.path("error").asText();
  }
}
