package io.netpulse.cli.demo;

import io.netpulse.cli.Main;
import io.netpulse.testbed.ChildJava;
import io.netpulse.testbed.netns.ProcessTree;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI as a user runs it: demo end to end, help, and bad configuration. */
@Tag("root")
class DemoCommandTest {

  @TempDir Path dataDir;

  record Run(int exit, String out, String err) {}

  /**
   * Runs {@code netpulse ARGS} as a user would: its own JVM (the test classpath, which is the
   * launcher jar's content), real stdout/stderr and exit code.
   */
  static Run run(String... args) throws Exception {
    java.util.List<String> cmd = new java.util.ArrayList<>(
        ChildJava.command("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(java.util.List.of(args));
    Path out = java.nio.file.Files.createTempFile("netpulse-out", ".txt");
    Path err = java.nio.file.Files.createTempFile("netpulse-err", ".txt");
    try {
      Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError("netpulse " + String.join(" ", args) + " did not finish in 180 s");
      }
      return new Run(p.exitValue(), java.nio.file.Files.readString(out), java.nio.file.Files.readString(err));
    } finally {
      java.nio.file.Files.deleteIfExists(out);
      java.nio.file.Files.deleteIfExists(err);
    }
  }

  @Test
  void demoWithDurationExitsZeroAndItsTableShowsANonZeroReceiveRate() throws Exception {
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
  void withoutDurationCtrlCStopsEverythingItStarted() throws Exception {
    Path out = dataDir.resolve("out.txt");
    Process p = new ProcessBuilder(ChildJava.command("-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "demo", "--rate", "100000000", "--data-dir", dataDir.resolve("data").toString()))
        .redirectOutput(out.toFile()).redirectErrorStream(true).start();
    try {
      long deadline = System.currentTimeMillis() + 120_000;
      while (!java.nio.file.Files.readString(out).contains("ready in")) {
        assertThat(p.isAlive()).as(java.nio.file.Files.readString(out)).isTrue();
        assertThat(System.currentTimeMillis()).as("ready within 120 s").isLessThan(deadline);
        Thread.sleep(200);
      }
      java.util.Set<Long> children = p.descendants().map(ProcessHandle::pid)
          .collect(java.util.stream.Collectors.toSet());
      assertThat(children).as("sampler and traffic run as children").isNotEmpty();
      new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
      assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      for (long pid : children) {
        assertThat(ProcessTree.isAlive(pid)).as("child %d still alive after Ctrl-C", pid).isFalse();
      }
      String namespaces = new String(new ProcessBuilder("ip", "netns", "list").start().getInputStream().readAllBytes());
      assertThat(namespaces).doesNotContain("np-" + p.pid() + "-");
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Test
  void helpListsTheSubcommands() throws Exception {
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
  void unwritableDataDirIsOneLineAndNamesTheFlag() throws Exception {
    Run r = run("demo", "--duration", "1", "--data-dir", "/proc/netpulse-not-here");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("netpulse: data dir /proc/netpulse-not-here")
        .endsWith("choose another with --data-dir").doesNotContain("\n");
  }
}
