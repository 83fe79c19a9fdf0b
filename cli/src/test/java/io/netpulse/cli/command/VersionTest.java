package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.cli.CliRun;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code netpulse --version} says the build's version (it said "netpulse dev" whatever was built). */
@Tag("unit")
class VersionTest {

  @Test
  void versionIsTheBuildsAndSubcommandsSayTheSame() {
    CliRun top = CliRun.of("--version");
    assertThat(top.exit()).isZero();
    // the project's version as Maven filtered it in, e.g. 0.1.0-SNAPSHOT
    assertThat(top.out().strip()).matches("netpulse \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    for (String command : new String[] {"run", "collector", "report", "compare"}) {
      CliRun sub = CliRun.of(command, "--version");
      assertThat(sub.out().strip()).as(command + " --version").isEqualTo(top.out().strip());
    }
  }
}
