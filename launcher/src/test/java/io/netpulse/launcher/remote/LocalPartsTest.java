package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts that need no SSH: the output cap, start-failure wording, and the install script's refusals. */
class LocalPartsTest {

  @TempDir Path dir;

  @Test
  void tailBufferKeepsTheEndOnceOverItsCap() {
    TailBuffer b = new TailBuffer(100);
    for (int i = 0; i < 50; i++) {
      b.append("line " + i);
    }
    String text = b.text();
    assertThat(text.length()).isLessThanOrEqualTo(100);
    assertThat(text).endsWith("line 48\nline 49\n");
    assertThat(b.droppedBytes() + text.length()).as("every byte kept or counted as dropped")
        .isEqualTo(10 * 7 + 40 * 8);
    assertThat(b.tail(2)).isEqualTo("line 48 | line 49");
    byte[] big = new byte[250];
    java.util.Arrays.fill(big, (byte) 'x');
    big[249] = 'y';
    b.write(big, 0, big.length);
    assertThat(b.text()).hasSize(100).endsWith("xy");
  }

  @Test
  void startFailureWithoutAKnownCauseShowsStderrOnly() {
    RemoteFailure f = StartFailure.describe("peer", "client-3", RemoteCommand.of("iperf3", "-c", "198.18.0.2"), 1,
        "iperf3: error - unable to connect to server");
    assertThat(f.host()).isEqualTo("peer");
    assertThat(f.getMessage()).isEqualTo("host peer: client-3 (iperf3) failed at start, exit 1: iperf3: error - "
        + "unable to connect to server");
  }

  @Test
  void installScriptRefusesWithoutRootOrSudo() throws Exception {
    assumeThat(new com.sun.security.auth.module.UnixSystem().getUid()).as("needs root to switch to nobody").isZero();
    Result r = run(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"), Map.of());
    assertThat(r.exit).as(r.output).isEqualTo(Packages.EXIT_NOT_ROOT);
  }

  @Test
  void installScriptRefusesWithoutAPackageManager() throws Exception {
    assumeThat(new com.sun.security.auth.module.UnixSystem().getUid()).as("root path of the script").isZero();
    Path bin = Files.createDirectory(dir.resolve("bin")); // a PATH with no apt-get, dnf or yum
    Files.createSymbolicLink(bin.resolve("id"), Path.of("/usr/bin/id"));
    Result r = run(List.of(), Map.of("PATH", bin.toString()));
    assertThat(r.exit).as(r.output).isEqualTo(Packages.EXIT_NO_MANAGER);
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> prefix, Map<String, String> env) throws Exception {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of("/bin/sh", "-c", Packages.INSTALL_SCRIPT, "netpulse-install",
        "iperf3=" + Packages.debian("iperf3") + "=" + Packages.redHat("iperf3")));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(p.waitFor(), out);
  }
}
