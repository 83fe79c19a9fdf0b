package io.netpulse.launcher.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.holder.HolderMain;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which jar run puts on the hosts: in a build tree the holder module's own (on the class path); from netpulse's jar,
 * one made of the holder's entries in it, which must run alone, stay under 1 MiB and come out the same every time.
 */
@Tag("unit")
class HolderJarTest {

  @TempDir Path dir;

  @Test
  void inABuildTreeItIsTheHolderModulesJar() throws Exception {
    Path jar = HolderJar.locate(null);
    assertThat(jar.getFileName()).hasToString("netpulse-holder.jar");
    assertThat(Files.size(jar)).isLessThanOrEqualTo(1024 * 1024);
  }

  @Test
  void fromNetpulsesJarItTakesTheHoldersEntriesOnly() throws Exception {
    Path fat = netpulseLikeJar();
    ByteArrayOutputStream first = new ByteArrayOutputStream();
    HolderJar.write(fat, first);
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    HolderJar.write(fat, second);
    assertThat(second.toByteArray()).as("the same bytes from the same jar").isEqualTo(first.toByteArray());
    Path made = dir.resolve("made.jar");
    Files.write(made, first.toByteArray());
    System.out.printf("holder jar made from a netpulse-like jar of %d bytes: %d bytes%n", Files.size(fat),
        Files.size(made));
    assertThat(Files.size(made)).isLessThanOrEqualTo(1024 * 1024);
    try (JarFile jar = new JarFile(made.toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS))
          .isEqualTo(HolderMain.class.getName());
      List<String> names = Collections.list(jar.entries()).stream().map(JarEntry::getName).toList();
      assertThat(names).contains("io/netpulse/holder/ConnectionClient.class", "picocli/CommandLine.class")
          .doesNotContain("io/netpulse/launcher/Main.class", "org/apache/kafka/Other.class",
              "META-INF/versions/9/module-info.class");
      assertThat(names.subList(1, names.size())).allMatch(n -> HolderMain.JAR_CONTENT.stream().anyMatch(n::startsWith));
    }
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
        "-jar", made.toString(), "client", "--help").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("Usage: java -jar netpulse-holder.jar client");
  }

  @Test
  void aChosenJarMustBeTheHolders() throws Exception {
    Path other = netpulseLikeJar();
    assertThatThrownBy(() -> HolderJar.locate(other)).isInstanceOf(RemoteFailure.class)
        .hasMessage("--remote-jar " + other + " is not the connection holder's jar (its Main-Class is "
            + "io.netpulse.cli.Main, not io.netpulse.holder.HolderMain); use holder/target/netpulse-holder.jar "
            + "or leave the option out");
    Path holder = HolderJar.locate(null);
    assertThat(HolderJar.locate(holder)).isEqualTo(holder);
  }

  /** Like netpulse's shaded jar: its own Main-Class, the holder's entries and others besides. */
  private Path netpulseLikeJar() throws Exception {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.netpulse.cli.Main");
    Path fat = dir.resolve("netpulse.jar");
    try (JarFile holder = new JarFile(HolderJar.locate(null).toFile());
        OutputStream out = Files.newOutputStream(fat); JarOutputStream to = new JarOutputStream(out, m)) {
      for (String extra : List.of("io/netpulse/launcher/Main.class", "org/apache/kafka/Other.class",
          "META-INF/versions/9/module-info.class")) {
        to.putNextEntry(new JarEntry(extra));
        to.write(new byte[] {1, 2, 3});
        to.closeEntry();
      }
      for (JarEntry e : Collections.list(holder.entries())) {
        if (e.getName().startsWith("META-INF/")) {
          continue;
        }
        to.putNextEntry(new JarEntry(e.getName()));
        try (InputStream in = holder.getInputStream(e)) {
          in.transferTo(to);
        }
        to.closeEntry();
      }
    }
    return fat;
  }
}
