package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.cli.options.ProcessorTuning;
import io.netpulse.cli.options.EnvHelp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.cli.CliRun;
import io.netpulse.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * One convention across the command tree: an option name means one thing everywhere, every variable the help names is
 * one the command reads, durations take one syntax, and the old spellings still work for one release with a warning.
 */
@Tag("unit")
class CliConventionTest {

  private static final Pattern NETPULSE_VAR = Pattern.compile("NETPULSE_[A-Z0-9_]*[A-Z0-9]");

  private static Map<String, CommandLine> commands() {
    Map<String, CommandLine> out = new LinkedHashMap<>();
    collect(Main.commandLine(), "", out);
    return out;
  }

  private static void collect(CommandLine cli, String prefix, Map<String, CommandLine> out) {
    cli.getSubcommands().forEach((name, sub) -> {
      String path = (prefix + " " + name).strip();
      out.put(path, sub);
      collect(sub, path, out);
    });
  }

  /** What a value of the option is: its label and kind (any enum is a choice, the help lists the values). */
  private static String meaning(OptionSpec o) {
    String kind = o.type().isEnum() ? "choice" : o.type().getSimpleName();
    return o.paramLabel() + " " + kind;
  }

  @Test
  void theSameOptionNameMeansTheSameInEveryCommand() {
    Map<String, Set<String>> meanings = new TreeMap<>();
    Map<String, List<String>> where = new TreeMap<>();
    for (Map.Entry<String, CommandLine> c : commands().entrySet()) {
      for (OptionSpec o : c.getValue().getCommandSpec().options()) {
        if (o.hidden() || o.usageHelp() || o.versionHelp()) {
          continue;
        }
        for (String name : o.names()) {
          meanings.computeIfAbsent(name, n -> new TreeSet<>()).add(meaning(o));
          where.computeIfAbsent(name + " " + meaning(o), n -> new ArrayList<>()).add(c.getKey());
        }
      }
    }
    List<String> differing = new ArrayList<>();
    meanings.forEach((name, m) -> {
      if (m.size() > 1) {
        differing.add(name + ": " + m.stream().map(x -> x + " in " + where.get(name + " " + x)).toList());
      }
    });
    assertThat(meanings).as("options walked").hasSizeGreaterThan(40);
    assertThat(differing).isEmpty();
    // --format is the output format and --output the file written, wherever they appear
    assertThat(meanings.get("--format")).containsExactly("FORMAT choice");
    assertThat(meanings.get("--output")).allSatisfy(m -> assertThat(m).startsWith("FILE "));
    assertThat(meanings.keySet().stream().filter(n -> n.endsWith("-seconds") || n.endsWith("-millis"))).isEmpty();
  }

  @Test
  void noOptionLabelNamesAUnitOfTime() {
    for (Map.Entry<String, CommandLine> c : commands().entrySet()) {
      for (OptionSpec o : c.getValue().getCommandSpec().options()) {
        assertThat(o.paramLabel()).as("netpulse %s %s", c.getKey(), o.longestName())
            .isNotIn("SECONDS", "MILLIS", "MS", "SECS");
        if (o.type() == Duration.class) {
          assertThat(o.paramLabel()).as("netpulse %s %s", c.getKey(), o.longestName()).isEqualTo("DURATION");
        }
      }
    }
  }

  /**
   * The reverse of {@link HelpMatchesBehaviourTest#everyOptionsVariableIsShownInItsCommandsHelp}: a variable the
   * help names is read, by an option's default or by the code (e.g. NETPULSE_INFLUX_TOKEN).
   */
  @Test
  void everyVariableTheHelpNamesIsRead() throws IOException {
    Set<String> read = new TreeSet<>();
    for (CommandLine c : commands().values()) {
      for (OptionSpec o : c.getCommandSpec().options()) {
        read.addAll(EnvHelp.envNames(o));
      }
    }
    Pattern getenv = Pattern.compile("getenv\\(\"(NETPULSE_[A-Z0-9_]+)\"\\)");
    try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
      for (Path f : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
        Matcher m = getenv.matcher(Files.readString(f));
        while (m.find()) {
          read.add(m.group(1));
        }
      }
    }
    assertThat(read).contains("NETPULSE_INFLUX_TOKEN", "NETPULSE_BOOTSTRAP_SERVERS");
    List<String> unread = new ArrayList<>();
    for (String command : commands().keySet()) {
      CliRun help = CliRun.of((command + " --help").split(" "));
      Matcher m = NETPULSE_VAR.matcher(help.out());
      while (m.find()) {
        if (!read.contains(m.group())) {
          unread.add("netpulse " + command + " --help names " + m.group());
        }
      }
    }
    assertThat(unread).isEmpty();
  }

  @Test
  void durationsTakeEachFormAndABareNumberKeepsTheOptionsUnit() {
    DurationOption.Seconds seconds = new DurationOption.Seconds();
    DurationOption.Millis millis = new DurationOption.Millis();
    assertThat(seconds.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(seconds.convert("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(seconds.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(seconds.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(seconds.convert("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(seconds.convert("70")).isEqualTo(Duration.ofSeconds(70));
    assertThat(millis.convert("500")).isEqualTo(Duration.ofMillis(500));
    assertThat(millis.convert("2s")).isEqualTo(Duration.ofSeconds(2));
    for (String bad : List.of("", "10 parsecs", "-5s", "1d", "0.5ms", "s")) {
      assertThatThrownBy(() -> seconds.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class)
          .hasMessageContaining("'" + bad + "' is not a duration such as 500ms, 10s, 5m or 1h");
    }
  }

  @Test
  void aBadDurationNamesTheOptionAndTheValue() {
    CliRun timeout = CliRun.of("report", "some-plan", "--timeout", "10 parsecs");
    assertThat(timeout.exit()).isEqualTo(2);
    assertThat(timeout.err()).contains("--timeout").contains("'10 parsecs' is not a duration");

    CliRun linger = CliRun.of("collector", "agent", "--bootstrap-servers", "127.0.0.1:1", "--batch-linger", "11s");
    assertThat(linger.exit()).isEqualTo(2);
    assertThat(linger.err().strip()).isEqualTo("netpulse: --batch-linger (NETPULSE_BATCH_LINGER) must be between 0s "
        + "and 10s, got 11s");

    CliRun connect = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--connect-timeout", "500ms");
    assertThat(connect.exit()).isEqualTo(2);
    assertThat(connect.err()).contains("--connect-timeout (NETPULSE_CONNECT_TIMEOUT) must be ≥ 1s, got 500ms");
  }

  @Test
  void runsOldOutputSpellingStillChoosesTheFormatWithOneWarning() {
    CliRun old = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--dry-run", "--queues", "4", "--output=json");
    assertThat(old.exit()).as(old.err()).isZero();
    assertThat(old.out().strip()).startsWith("[");
    assertThat(old.err().strip()).isEqualTo("netpulse run: warning: --output json as a format is deprecated and "
        + "will be removed in the next release; use --format json (--output now names a file: ./json for a file of "
        + "that name)");

    CliRun current = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--dry-run", "--queues", "4",
        "--format", "json");
    assertThat(current.exit()).as(current.err()).isZero();
    assertThat(current.out()).isEqualTo(old.out());
    assertThat(current.err()).isEmpty();
  }

  @Test
  void runsOutputIsTheFileItWritesLikeReportsAndExports(@TempDir Path dir) throws IOException {
    CliRun stdout = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--dry-run", "--queues", "4",
        "--format", "json");
    Path file = dir.resolve("json");
    CliRun toFile = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--dry-run", "--queues", "4",
        "--format", "json", "-o", file.toString());
    assertThat(toFile.exit()).as(toFile.err()).isZero();
    assertThat(toFile.out()).isEmpty();
    assertThat(toFile.err()).isEmpty();
    assertThat(Files.readString(file)).isEqualTo(stdout.out()).startsWith("[");
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left).as("no temporary file left beside it").containsExactly(file);
    }

    // a real run whose results could not be written is refused before any host is touched
    CliRun missingDir = CliRun.of("run", "../examples/xlarge-vs-xlarge.yaml", "--output",
        dir.resolve("no-such-dir").resolve("results.json").toString());
    assertThat(missingDir.exit()).isEqualTo(2);
    assertThat(missingDir.err().strip()).isEqualTo("netpulse: cannot write " + dir.resolve("no-such-dir")
        .resolve("results.json") + ": directory " + dir.resolve("no-such-dir") + " does not exist (choose another "
        + "--output)");
  }

  @Test
  void theProcessorsOldMillisecondOptionsStillWorkWithOneWarningEach() {
    ProcessorTuning current = new ProcessorTuning();
    new CommandLine(current).parseArgs("--commit-interval", "1s", "--producer-linger", "20ms");
    assertThat(current.settings().commitInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(current.settings().producerLingerMs()).isEqualTo(20);

    ProcessorTuning old = new ProcessorTuning();
    new CommandLine(old).parseArgs("--commit-ms", "250", "--producer-linger-ms", "7");
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    io.netpulse.processor.ProcessorSettings settings;
    try {
      settings = old.settings();
    } finally {
      System.setErr(err);
    }
    assertThat(settings.commitInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(settings.producerLingerMs()).isEqualTo(7);
    assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8).lines()).containsExactly(
        "netpulse processor: warning: --commit-ms (NETPULSE_COMMIT_MS) is deprecated and will be removed in the next "
            + "release; use --commit-interval",
        "netpulse processor: warning: --producer-linger-ms (NETPULSE_PRODUCER_LINGER_MS) is deprecated and will be "
            + "removed in the next release; use --producer-linger");
  }
}
