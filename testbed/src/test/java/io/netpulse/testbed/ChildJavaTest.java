package io.netpulse.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ChildJavaTest {

  @Test
  void aChildGetsThisJvmsCompilerAndCollectorFlags() throws Exception {
    List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-XX:")).toList();
    assertThat(flags).as("surefire's argLine (the root pom's test.jvm.flags) reached this JVM")
        .contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    List<String> command = ChildJava.command("-XX:+PrintFlagsFinal", "-version");
    assertThat(Path.of(command.get(0))).isExecutable();
    assertThat(command).containsAll(flags).endsWith("-XX:+PrintFlagsFinal", "-version");

    // the child really runs with them, as the JVM itself reports its final flags
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).containsPattern("TieredStopAtLevel\\s+= 1 ").containsPattern("UseSerialGC\\s+= true ");
  }

  @Test
  void aChildsTemporaryFilesGoToADirectoryOfThisJvmsNotTmp() throws Exception {
    // a child killed with SIGKILL leaves what it extracted there (RocksDB's library): this JVM deletes it at exit
    Process p = new ProcessBuilder(ChildJava.command("-XshowSettings:properties", "-version"))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String tmpdir = out.lines().filter(l -> l.strip().startsWith("java.io.tmpdir = ")).findFirst().orElseThrow()
        .strip().substring("java.io.tmpdir = ".length());
    assertThat(Path.of(tmpdir)).isDirectory().isNotEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
    assertThat(Path.of(tmpdir).getFileName().toString()).startsWith("netpulse-test-children-");
  }
}
