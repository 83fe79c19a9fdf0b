package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The install script's refusals, run here by /bin/sh: they need root (to switch to nobody, or to reach the root path). */
@Tag("root")
class InstallScriptTest {

  @TempDir Path dir;

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
