package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.ArgumentCheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rendered commands go through a real /bin/sh; argv must come out exactly as given, and nothing else runs. */
@Tag("unit")
class RemoteCommandTest {

  @TempDir Path dir;

  /** Runs {@code shellText} with /bin/sh -c in {@code dir}; returns stdout split at NULs. */
  private List<String> runInShell(String shellText) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("/bin/sh", "-c", shellText).directory(dir.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      String s = new String(out, StandardCharsets.UTF_8);
      List<String> args = new ArrayList<>(Arrays.asList(s.split("\0", -1)));
      args.remove(args.size() - 1); // after the last NUL
      return args;
    } finally {
      p.destroyForcibly();
    }
  }

  /** The argv of {@code command} printed by printf, one NUL-terminated word each. */
  private List<String> argvThroughShell(RemoteCommand command) throws Exception {
    List<String> printf = new ArrayList<>(List.of("printf", "%s\\0"));
    printf.addAll(command.argv());
    return runInShell(new RemoteCommand(command.env(), printf).render());
  }

  static final List<String> NASTY = List.of(
      "; touch pwned1",
      "$(touch pwned2)",
      "`touch pwned3`",
      "' ; touch pwned4 ; '",
      "\" ; touch pwned5 ; \"",
      "a b\tc",
      "line1\ntouch pwned6",
      "*",
      "?[a-z]*",
      "~root",
      "$HOME ${PATH}",
      "it's",
      "'",
      "''",
      "\\",
      "-n",
      "",
      "&& touch pwned7 || touch pwned8 | touch pwned9 > pwned10 < /dev/null & #",
      "ünïcödé ✓");

  @Test
  void everyValueStaysOneArgumentAndNothingElseRuns() throws Exception {
    Files.createFile(dir.resolve("a-file-for-globs"));
    for (String nasty : NASTY) {
      RemoteCommand cmd = RemoteCommand.of("netperf", "-H", nasty, "-p", 5001, nasty);
      assertThat(argvThroughShell(cmd)).as("argv of %s", cmd.render()).containsExactly("netperf", "-H", nasty, "-p", "5001", nasty);
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("a-file-for-globs");
    }
  }

  @Test
  void environmentValuesAreQuotedToo() throws Exception {
    RemoteCommand cmd = RemoteCommand.of("sh", "-c", "printf '%s\\0' \"$X\"").withEnv("X", "$(touch pwned) `id` ;x");
    assertThat(runInShell(cmd.render())).containsExactly("$(touch pwned) `id` ;x");
    assertThat(dir.resolve("pwned")).doesNotExist();
  }

  @Test
  void quoting() {
    assertThat(RemoteCommand.quote("netperf")).isEqualTo("netperf");
    assertThat(RemoteCommand.quote("198.18.0.2")).isEqualTo("198.18.0.2");
    assertThat(RemoteCommand.quote("1,1")).isEqualTo("1,1");
    assertThat(RemoteCommand.quote("")).isEqualTo("''");
    assertThat(RemoteCommand.quote("it's")).isEqualTo("'it'\\''s'");
    assertThat(RemoteCommand.quote("a b")).isEqualTo("'a b'");
    assertThat(ToolCommands.sarDev().render()).isEqualTo("env LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC sar -n DEV 1");
  }

  @Test
  void refusesWhatCannotBeOneArgument() {
    assertThatThrownBy(() -> RemoteCommand.of("printf", "a\0b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> RemoteCommand.of("X=1", "a")).hasMessageContaining("contains '='");
    assertThatThrownBy(() -> RemoteCommand.of("-rf")).hasMessageContaining("starts with '-'");
    assertThatThrownBy(() -> RemoteCommand.of("ls").withEnv("A;B", "x")).hasMessageContaining("A;B");
    assertThatThrownBy(() -> new SutFacts("eth0\ntouch x", 4)).hasMessageContaining("interface name");
    assertThatThrownBy(() -> new SutFacts("eth0; id", 4)).hasMessageContaining("not an interface name");
    assertThatThrownBy(() -> new SutFacts("eth0", 0)).hasMessageContaining("at least 1");
    assertThat(ArgumentCheck.singleLineProblem("a\rb")).isEqualTo("contains a line break");
  }

  /** Plan values that pass loading (paths with shell syntax) still reach the host as one argument each. */
  @Test
  void planValuesThatReachCommandsStayArguments() throws Exception {
    String evil = "x; touch pwned1 $(touch pwned2) `touch pwned3` 'q' \"d\" *";
    Plan plan = PlanLoader.parse("p.yaml", dir, """
        name: injection
        prepare: { nofile: 1000000 }
        hosts:
          sut:  { address: 198.18.0.2, java: '%s' }
          peer: { address: 198.18.0.1, java: '%s' }
        tests:
          - { type: concurrent_connections, target: 10 }
          - { type: concurrent_connections, name: c1000k, tool: c1000k, c1000k_dir: '%s', listeners: 2 }
        """.formatted(evil.replace("'", "''"), evil.replace("'", "''"), evil.replace("'", "''")));
    Files.createFile(dir.resolve("a-file-for-globs"));
    int checked = 0;
    for (var test : plan.tests()) {
      TestProcedure p = Procedures.build(plan, test, new SutFacts("eth0", 2));
      for (HostCommand hc : p.commands()) {
        assertThat(argvThroughShell(hc.command())).as(hc.command().render()).isEqualTo(hc.command().argv());
        checked++;
      }
      // and run as is: the program named by the plan does not exist, so sh fails and nothing else runs
      assertThat(new ProcessBuilder("/bin/sh", "-c", p.servers().get(0).command().render()).directory(dir.toFile())
          .redirectErrorStream(true).start().waitFor()).isNotZero();
    }
    assertThat(checked).isGreaterThan(4);
    assertThat(plan.tests().get(0).c1000kDir()).isEqualTo("c1000k");
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("a-file-for-globs");
    }
  }
}
