package io.netpulse.cli.command;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Tag("unit")
class ParseCommandTest {

  /** Rows of a real `LC_ALL=C sar -n DEV 1 3` between two namespaces, plus one broken row. */
  private static final String SAR = String.join("\n",
      "Linux 6.18.44-fc-v595 (vm) \t11/30/26 \t_x86_64_\t(2 CPU)",
      "",
      "05:13:31        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil",
      "05:13:32        npp-a   1538.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33",
      "05:13:33        npp-a    745.00   oops    48.05 355877.85      0.00      0.00      0.00     29.15",
      "",
      "Average:        npp-a   1026.16   6370.20     66.19 368941.73      0.00      0.00      0.00     30.22",
      "");

  private record Run(int exit, List<JsonNode> out, String err) {}

  private static Run run(String stdin, String... args) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new ParseCommand(
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))));
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int exit = cmd.execute(args);
    List<JsonNode> json = new ArrayList<>();
    for (String line : out.toString().split("\n")) {
      if (!line.isBlank()) {
        json.add(Json.mapper().readTree(line));
      }
    }
    return new Run(exit, json, err.toString());
  }

  @Test
  void sarFileToJsonLinesWithErrorsOnStderr(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sar.txt");
    Files.writeString(file, SAR);
    Run r = run("", "--tool", Sources.SAR_DEV, "--tz", "UTC", file.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).hasSize(8); // one good row + Average, 4 metrics each
    JsonNode first = r.out().get(0);
    assertThat(first.get("metric").asText()).isEqualTo("rx_pps");
    assertThat(first.get("value").asDouble()).isEqualTo(1538.24);
    assertThat(first.get("iface").asText()).isEqualTo("npp-a");
    assertThat(first.get("ts").asLong()).isEqualTo(1_796_015_612_000L); // 2026-11-30T05:13:32Z
    assertThat(first.get("unit").asText()).isEqualTo("packets/s");
    assertThat(first.has("summary")).isFalse();
    assertThat(first.has("test")).isFalse();
    JsonNode txBps = r.out().get(3);
    assertThat(txBps.get("metric").asText()).isEqualTo("tx_bps");
    assertThat(txBps.get("value").asDouble()).isEqualTo(467847.96 * 8192);
    assertThat(r.out().get(4).get("summary").asBoolean()).isTrue();
    assertThat(r.err()).contains(file.toString() + ": line 5: field txpck/s").doesNotContain("Exception");
  }

  @Test
  void stdinAndTestOption() throws Exception {
    Run r = run("16384  131072 1        1       2.00     44445.24   \n16384  131072\n",
        "--tool", "netperf", "--test", "TCP_RR", "-");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).singleElement().satisfies(j -> {
      assertThat(j.get("metric").asText()).isEqualTo("trans_per_s");
      assertThat(j.get("value").asDouble()).isEqualTo(44445.24);
      assertThat(j.get("test").asText()).isEqualTo("TCP_RR");
      assertThat(j.get("summary").asBoolean()).isTrue();
    });
  }

  /** --format was parse's name for --tool until --format came to mean the output format everywhere. */
  @Test
  void theOldFormatSpellingStillWorksWithOneWarning() throws Exception {
    Run r = run("16384  131072 1        1       2.00     44445.24   \n16384  131072\n",
        "--format", "netperf", "--test", "TCP_RR", "-");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).singleElement().satisfies(j -> assertThat(j.get("value").asDouble()).isEqualTo(44445.24));
    assertThat(r.err().strip()).isEqualTo("netpulse parse: warning: --format is deprecated and will be removed in "
        + "the next release; use --tool");
  }

  @Test
  void noSamplesOrBadUsageExitTwo(@TempDir Path dir) throws Exception {
    Run none = run("16384  131072 1        1       2.00     44445.24\n", "--tool", "netperf");
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).contains("<stdin>: line 1").contains("--test");

    Run unknown = run("", "--tool", "nope");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("unknown --tool 'nope'").contains(Sources.SAR_DEV);

    Run missing = run("", "--tool", "ping", dir.resolve("absent.txt").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("cannot read").contains("absent.txt");

    Run noTool = run("", "--tz", "UTC");
    assertThat(noTool.exit()).isEqualTo(2);
    assertThat(noTool.err()).contains("missing --tool TOOL");
    assertThat(run("", "--tool", Sources.SAR_DEV, "--tz", "Mars/Olympus").err()).contains("Mars/Olympus");
  }

  @Test
  void nonUtf8BytesDoNotStopParsing(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ping.txt");
    byte[] text = ("64 bytes from 198.19.250.2: icmp_seq=1 ttl=64 time=0.180 ms\n\u00ff\u00fe"
        + "\n3 packets transmitted, 3 received, 0% packet loss, time 411ms\n").getBytes(StandardCharsets.ISO_8859_1);
    Files.write(file, text);
    Run r = run("", "--tool", "ping", file.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).extracting(j -> j.get("metric").asText())
        .containsExactly("rtt_ms", "transmitted", "received", "loss_pct");
  }
}
