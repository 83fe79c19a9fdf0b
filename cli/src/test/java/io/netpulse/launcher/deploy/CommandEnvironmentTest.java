package io.netpulse.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.netpulse.cli.Main;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every setting of the long-running commands can come from the environment, under a predictable name. */
@Tag("unit")
class CommandEnvironmentTest {

  /** The commands a deployment configures through the environment. */
  static final Set<String> DEPLOYED = Set.of("processor", "dashboard", "collector agent", "collector ssh", "run");

  @Test
  void everyOptionOfTheDeployedCommandsHasAnEnvDefaultNamedAfterIt() {
    List<String> problems = new ArrayList<>();
    Map<String, List<CodeEnvironment.OptionDefault>> commands = CodeEnvironment.optionsByCommand();
    assertThat(commands.keySet()).containsAll(DEPLOYED);
    for (String command : DEPLOYED) {
      for (CodeEnvironment.OptionDefault o : commands.get(command)) {
        if (!o.envNames().contains(o.expectedEnv())) {
          problems.add("netpulse " + command + " " + o.name() + " (" + o.declaredIn().getSimpleName()
              + "): defaultValue '" + o.defaultValue() + "' does not read ${env:" + o.expectedEnv() + "}");
        }
      }
    }
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }

  @Test
  void everyVariableOfTheDeployedCommandsIsInTheConfigurationDoc() {
    String doc = RepoFiles.read("docs/configuration.md");
    Set<String> missing = new java.util.TreeSet<>();
    for (String command : DEPLOYED) {
      for (CodeEnvironment.OptionDefault o : CodeEnvironment.optionsByCommand().get(command)) {
        if (!o.hidden()) {
          o.envNames().stream().filter(name -> !doc.contains("`" + name + "`")).forEach(missing::add);
        }
      }
    }
    if (!missing.isEmpty()) {
      fail("docs/configuration.md does not name " + missing);
    }
  }

  @Test
  void theFormerDefaultsStillApplyWithoutTheVariablesAndAFlagStillWins() {
    // the test JVM has none of these variables: the ${env:NAME:-default} fallback must be the old default
    CommandLine cli = Main.commandLine();
    CommandLine.ParseResult parsed = cli.parseArgs("collector", "agent", "--bootstrap-servers", "k:9092",
        "--batch-linger", "250");
    CommandLine.ParseResult agent = parsed.subcommand().subcommand();
    assertThat(agent.matchedOptionValue("--batch-linger", java.time.Duration.ZERO)).isEqualTo(java.time.Duration.ofMillis(250));
    assertThat(agent.commandSpec().findOption("--spool-max-bytes").getValue().toString()).isEqualTo("256m");
    assertThat(agent.commandSpec().findOption("--samplers").getValue().toString()).isEqualTo("[sar-dev, ss-summary]");
  }

  @Test
  void collectorSshStillRequiresAnInventoryWhenNoneIsInTheEnvironment() {
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("NETPULSE_INVENTORY") == null);
    CommandLine cli = Main.commandLine();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> cli.parseArgs("collector", "ssh", "--bootstrap-servers", "k:9092"))
        .isInstanceOf(CommandLine.MissingParameterException.class)
        .hasMessageContaining("--inventory");
  }
}
