package io.netpulse.holder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The jar the launcher puts on the hosts (issue 15: at most 1 MiB, the JDK and picocli only): its size, what it
 * holds, and that {@code java -jar} of it alone runs the tool. Runs in {@code mvn test}/{@code verify}, since the
 * build makes the jar right after compiling.
 */
@Tag("unit")
class HolderJarTest {

  private static final long MAX_BYTES = 1024 * 1024;

  @Test
  void isAtMostOneMebibyte() throws IOException {
    Path jar = ConnectionsTestSupport.builtJar();
    long size = Files.size(jar);
    System.out.printf("%s: %d bytes%n", jar, size);
    assertThat(size).as(jar + " in bytes").isPositive().isLessThanOrEqualTo(MAX_BYTES);
  }

  @Test
  void holdsTheToolAndPicocliOnly() throws IOException {
    List<String> others = new ArrayList<>();
    try (JarFile jar = new JarFile(ConnectionsTestSupport.builtJar().toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS))
          .isEqualTo(HolderMain.class.getName());
      for (JarEntry e : Collections.list(jar.entries())) {
        String name = e.getName();
        if (HolderMain.JAR_CONTENT.stream().noneMatch(name::startsWith) && !name.startsWith("META-INF/")
            && !name.equals("io/") && !name.equals("io/netpulse/")) {
          others.add(name);
        }
      }
      assertThat(jar.getEntry("io/netpulse/holder/ConnectionClient.class")).isNotNull();
      assertThat(jar.getEntry("picocli/CommandLine.class")).isNotNull();
    }
    assertThat(others).as("entries from elsewhere than the holder and picocli").isEmpty();
  }

  @Test
  void runsAloneWithJava() throws Exception {
    Process p = new ProcessBuilder(ConnectionsTestSupport.jarCommand(List.of(), List.of("-Xmx32m"), "--help"))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).startsWith("Usage: " + HolderMain.NAME + " [-hV] [COMMAND]")
        .contains("server  Listen on every port").contains("client  Climb: open TCP connections");

    Process bad = new ProcessBuilder(ConnectionsTestSupport.jarCommand(List.of(), List.of("-Xmx32m"), "server",
        "--ports", "2000:1000:5")).redirectErrorStream(true).start();
    String err = new String(bad.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(bad.exitValue()).as(err).isEqualTo(2);
    assertThat(err).contains("FIRST 2000 is after LAST 1000").doesNotContain("\tat ");
  }
}
