package io.netpulse.holder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code java -jar netpulse-holder.jar --version} says the build's version (it printed an empty line). */
@Tag("unit")
class HolderVersionTest {

  @Test
  void theHolderAndItsCommandsSayTheBuildsVersion() {
    String top = version();
    assertThat(top).matches("netpulse-holder \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    assertThat(version("server")).isEqualTo(top);
    assertThat(version("client")).isEqualTo(top);
  }

  private static String version(String... command) {
    StringWriter out = new StringWriter();
    var cli = HolderMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    String[] args = java.util.Arrays.copyOf(command, command.length + 1);
    args[command.length] = "--version";
    assertThat(cli.execute(args)).isZero();
    return out.toString().strip();
  }
}
