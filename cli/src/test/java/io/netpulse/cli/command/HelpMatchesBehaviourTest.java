package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.cli.CliRun;
import io.netpulse.cli.Main;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What each command's --help says is what the command does: which Kafka and store it needs or starts, which
 * options it takes, and from which variables. Through Main's command line, as bin/netpulse runs it.
 */
@Tag("unit")
class HelpMatchesBehaviourTest {

  /** Commands that start no broker: they need an external Kafka. */
  static final List<String> NEED_A_CLUSTER = List.of("processor", "dashboard", "collector agent", "collector ssh",
      "topics lag", "topics tail", "topics list");

  private static String help(String command) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add("--help");
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.err()).isZero();
    return r.out();
  }

  /** The help text of one option: its line and the indented lines under it. */
  private static String optionHelp(String help, String option) {
    // options start in column 3 ("  -n, --last") or 7 ("      --data-dir"); wrapped descriptions further right
    Matcher m = Pattern.compile("(?m)^  (-\\w, |    )" + Pattern.quote(option) + "\\b.*(\\n {20,}.*)*").matcher(help);
    assertThat(m.find()).as(option + " in\n" + help).isTrue();
    return m.group().replaceAll("\\s+", " ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"processor", "dashboard", "collector agent", "collector ssh", "topics lag", "topics tail",
      "topics list"})
  void commandsThatStartNoBrokerSayBootstrapServersIsRequired(String command) {
    String bootstrap = optionHelp(help(command), "--bootstrap-servers");
    assertThat(bootstrap).contains("required").contains("starts no broker").doesNotContain("embedded")
        .contains("Env: NETPULSE_BOOTSTRAP_SERVERS");
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "demo", "report"})
  void commandsThatStartAnEmbeddedBrokerSaySo(String command) {
    assertThat(optionHelp(help(command), "--bootstrap-servers")).contains("Default:").contains("embedded")
        .contains("--data-dir").doesNotContain("required");
  }

  @Test
  void processorOffersNoEmbeddedStoreAndNoEmbeddedPorts() {
    String help = help("processor");
    assertThat(optionHelp(help, "--influx-url")).contains("Default: none").doesNotContain("embedded");
    assertThat(help).doesNotContain("--kafka-port", "--store-port");
    assertThat(help.replaceAll("\\s+", " ")).contains("starts no broker and no store of its own");
  }

  @Test
  void runAndDemoStillOfferTheEmbeddedStore() {
    for (String command : List.of("run", "demo")) {
      String help = help(command);
      assertThat(optionHelp(help, "--influx-url")).contains("embedded QuestDB");
      assertThat(help).contains("--store-port", "--kafka-port", "--partitions");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"report", "dashboard", "collector agent", "collector ssh", "topics lag", "topics tail",
      "topics list"})
  void commandsThatWriteNoStoreAndCreateNoTopicsDoNotOfferThoseOptions(String command) {
    assertThat(help(command)).doesNotContain("--influx-url", "--influx-org", "--influx-bucket",
        "--influx-token-file", "--store-port", "--partitions");
  }

  @Test
  void dashboardAndTopicsKeepNoLocalData() {
    for (String command : List.of("dashboard", "topics lag", "topics tail", "topics list")) {
      assertThat(help(command)).as(command).doesNotContain("--data-dir", "--kafka-port");
    }
    assertThat(optionHelp(help("collector agent"), "--data-dir")).contains("spool");
    assertThat(optionHelp(help("report"), "--data-dir")).contains("earlier run");
  }

  /** Every option whose default reads a NETPULSE_ variable names that variable in its command's help. */
  @Test
  void everyOptionsVariableIsShownInItsCommandsHelp() throws Exception {
    Map<String, CommandLine> commands = new LinkedHashMap<>();
    collect(Main.commandLine(), "", commands);
    Pattern env = Pattern.compile("\\$\\{env:(NETPULSE_[A-Z0-9_]+)");
    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (Map.Entry<String, CommandLine> c : commands.entrySet()) {
      String help = help(c.getKey());
      for (OptionSpec o : c.getValue().getCommandSpec().options()) {
        if (o.hidden() || !(o.userObject() instanceof Field f)) {
          continue;
        }
        Matcher m = env.matcher(f.getAnnotation(CommandLine.Option.class).defaultValue());
        while (m.find()) {
          checked++;
          if (!optionHelp(help, o.longestName()).contains("Env: " + m.group(1))) {
            missing.add("netpulse " + c.getKey() + " " + o.longestName() + ": " + m.group(1));
          }
        }
      }
    }
    assertThat(checked).as("options with variables").isGreaterThan(40);
    assertThat(missing).isEmpty();
  }

  /**
   * Every command's help renders as written: a lone '%' in a description is a format conversion to picocli, which
   * then prints a "[picocli WARN] Could not format" line per use on the user's terminal.
   */
  @Test
  void everyCommandsHelpRendersWithoutFormatWarnings() {
    Map<String, CommandLine> commands = new LinkedHashMap<>();
    collect(Main.commandLine(), "", commands);
    java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
    java.io.PrintStream err = System.err;
    System.setErr(new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      commands.keySet().forEach(HelpMatchesBehaviourTest::help);
    } finally {
      System.setErr(err);
    }
    assertThat(commands).hasSizeGreaterThan(15);
    assertThat(warnings.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
  }

  private static void collect(CommandLine cli, String prefix, Map<String, CommandLine> out) {
    cli.getSubcommands().forEach((name, sub) -> {
      String path = (prefix + " " + name).strip();
      out.put(path, sub);
      collect(sub, path, out);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"processor", "dashboard", "collector agent", "topics lag", "topics list"})
  void withoutBootstrapServersTheCommandStopsWithTheOneLineItsHelpPromises(String command) {
    assumeTrue(System.getenv("NETPULSE_BOOTSTRAP_SERVERS") == null && System.getenv("NETPULSE_KAFKA_CONFIG") == null);
    CliRun r = CliRun.of(command.split(" "));
    assertThat(r.exit()).as(r.err()).isEqualTo(2);
    String name = command.startsWith("collector") ? "collector" : command;
    assertThat(r.err().strip()).startsWith("netpulse: " + name + " needs --bootstrap-servers (or "
        + "NETPULSE_BOOTSTRAP_SERVERS, or bootstrap.servers in --kafka-config)").doesNotContain("\n");
  }

  @Test
  void badValuesNameTheFlagAndItsVariableAndAreUsageErrors() {
    CliRun org = CliRun.of("processor", "--bootstrap-servers", "127.0.0.1:1", "--influx-url", "http://127.0.0.1:1",
        "--influx-org", "");
    assertThat(org.exit()).isEqualTo(2);
    assertThat(org.err().strip()).isEqualTo("netpulse: --influx-org (NETPULSE_INFLUX_ORG) is empty: give the InfluxDB "
        + "organisation to write to");

    CliRun url = CliRun.of("processor", "--bootstrap-servers", "127.0.0.1:1", "--influx-url", "influxdb:8086");
    assertThat(url.err()).startsWith("netpulse: --influx-url (NETPULSE_INFLUX_URL) must be an http:// or https:// URL");

    CliRun servers = CliRun.of("dashboard", "--bootstrap-servers", "kafka");
    assertThat(servers.exit()).isEqualTo(2);
    assertThat(servers.err()).startsWith("netpulse: --bootstrap-servers (NETPULSE_BOOTSTRAP_SERVERS) must be "
        + "HOST:PORT");

    CliRun threads = CliRun.of("processor", "--bootstrap-servers", "127.0.0.1:1", "--stream-threads", "0");
    assertThat(threads.err().strip()).isEqualTo("netpulse: --stream-threads (NETPULSE_STREAM_THREADS) must be ≥ 1, "
        + "got 0");

    CliRun prefix = CliRun.of("collector", "agent", "--bootstrap-servers", "127.0.0.1:1", "--topic-prefix", "net pulse");
    assertThat(prefix.exit()).isEqualTo(2);
    assertThat(prefix.err()).startsWith("netpulse: --topic-prefix (NETPULSE_TOPIC_PREFIX) may hold only letters");

    CliRun linger = CliRun.of("collector", "agent", "--bootstrap-servers", "127.0.0.1:1", "--batch-linger", "20000");
    assertThat(linger.err().strip()).isEqualTo("netpulse: --batch-linger (NETPULSE_BATCH_LINGER) must be between 0s "
        + "and 10s, got 20s");
  }

  @Test
  void removedOptionsAreRefusedAsUnknown() {
    CliRun r = CliRun.of("dashboard", "--bootstrap-servers", "127.0.0.1:1", "--influx-url", "http://x:1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("Unknown options: '--influx-url'");
  }
}
