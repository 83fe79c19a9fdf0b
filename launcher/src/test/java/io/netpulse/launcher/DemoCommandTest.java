package io.netpulse.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI as a user runs it: demo end to end, help, and bad configuration. */
class DemoCommandTest {

  @TempDir Path dataDir;

  record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      CommandLine cli = Main.commandLine();
      cli.setOut(new java.io.PrintWriter(o, true));
      cli.setErr(new java.io.PrintWriter(e, true));
      exit = cli.execute(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void demoWithDurationExitsZeroAndItsTableShowsANonZeroReceiveRate() {
    Run r = run("demo", "--duration", "8", "--rate", "200000000", "--data-dir", dataDir.toString());
    System.out.println(r.out());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).containsPattern("ready in \\d+\\.\\d s");
    assertThat(r.out()).containsPattern("dashboard http://127\\.0\\.0\\.1:\\d+/");
    Matcher m = Pattern.compile("\\| rx_bps +\\| bit/s +\\| +([0-9.]+) \\|").matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    double mean = Double.parseDouble(m.group(1));
    // iperf3 asked for 200 Mbit/s of payload; on the wire a little more, never far off
    assertThat(mean).isBetween(150e6, 260e6);
    assertThat(r.out()).containsPattern("rx [0-9. ]+[kMG]?bit/s"); // live per-second lines
  }

  @Test
  void helpListsTheSubcommands() {
    Run r = run("--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("demo", "processor", "parse");
  }

  @Test
  void unreachableBootstrapServersIsOneLineAndNonZero() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Run r = run("demo", "--duration", "1", "--data-dir", dataDir.toString(),
        "--bootstrap-servers", "127.0.0.1:" + closedPort);
    assertThat(r.exit()).isNotZero();
    assertThat(r.err().strip()).isEqualTo("netpulse: cannot reach Kafka at 127.0.0.1:" + closedPort
        + " within 10 s; check --bootstrap-servers (or leave it out to use the embedded broker)");
  }

  @Test
  void portInUseIsOneLineAndNamesTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Run r = run("demo", "--duration", "1", "--data-dir", dataDir.toString(),
          "--dashboard-port", String.valueOf(taken.getLocalPort()));
      assertThat(r.exit()).isNotZero();
      assertThat(r.err().strip()).startsWith("netpulse: port " + taken.getLocalPort())
          .contains("--dashboard-port").doesNotContain("\n").doesNotContain("Exception");
    }
  }

  @Test
  void unwritableDataDirIsOneLineAndNamesTheFlag() {
    Run r = run("demo", "--duration", "1", "--data-dir", "/proc/netpulse-not-here");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("netpulse: data dir /proc/netpulse-not-here")
        .endsWith("choose another with --data-dir").doesNotContain("\n");
  }
}
