package io.netpulse.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class ChildClassShareTest {

  /** A small list, so that the dump takes a second: the JDK classes a JVM needs, and the probe. */
  private static final ChildClassShare.ClassList LIST = () -> new ByteArrayInputStream("""
      java/lang/Object
      java/lang/String
      java/lang/System
      io/netpulse/testbed/ChildClassShareProbe
      """.getBytes(StandardCharsets.UTF_8));

  @TempDir Path dir;

  @Test
  void directoriesBecomeJarsAndAChildLoadsItsClassesFromTheArchive() throws Exception {
    Path classes = copyOfTestClasses();
    String classPath = classes.toString();

    ChildClassShare.Shared shared = ChildClassShare.of(classPath, dir.resolve("cds"), LIST).orElseThrow();
    assertThat(shared.classPath().split(File.pathSeparator)).allSatisfy(e -> assertThat(e).endsWith(".jar"));
    assertThat(shared.archive()).exists();
    // -Xshare:on fails the JVM if the archive cannot be mapped; the class-load log says where the probe came from
    List<String> out = run(shared, "-Xshare:on", "-Xlog:class+load=info");
    assertThat(out).contains("probe ran");
    assertThat(out).anyMatch(l -> l.contains("io.netpulse.testbed.ChildClassShareProbe source: shared objects file"));

    // the next child gets the same archive, not a new dump
    FileTime dumped = Files.getLastModifiedTime(shared.archive());
    assertThat(ChildClassShare.of(classPath, dir.resolve("cds"), LIST)).contains(shared);
    assertThat(Files.getLastModifiedTime(shared.archive())).isEqualTo(dumped);

    // a class changed since: a new jar, a new archive, the old one gone
    Path probe = classes.resolve("io/netpulse/testbed/ChildClassShareProbe.class");
    Files.setLastModifiedTime(probe, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    ChildClassShare.Shared again = ChildClassShare.of(classPath, dir.resolve("cds"), LIST).orElseThrow();
    assertThat(again.archive()).isNotEqualTo(shared.archive()).exists();
    assertThat(shared.archive()).doesNotExist();
    assertThat(run(again, "-Xshare:on")).contains("probe ran");
  }

  @Test
  void aFailedDumpLeavesTheChildWithoutArchiveOnceAndForAll() throws Exception {
    String classPath = copyOfTestClasses().toString();
    ChildClassShare.ClassList unreadable = () -> {
      throw new java.io.IOException("no list here");
    };
    assertThat(ChildClassShare.of(classPath, dir.resolve("cds"), unreadable)).isEmpty();
    // a dump the JVM refuses ("class list format error") is recorded, and not tried again for that class path
    ChildClassShare.ClassList garbage = () -> new ByteArrayInputStream("@@@ not a class list\n".getBytes());
    assertThat(ChildClassShare.of(classPath, dir.resolve("cds2"), garbage)).isEmpty();
    try (var files = Files.list(dir.resolve("cds2"))) {
      assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".failed"));
    }
    assertThat(ChildClassShare.of(classPath, dir.resolve("cds2"), LIST)).isEmpty();
  }

  @Test
  void offUnlessItsDirectoryIsGiven() {
    String before = System.clearProperty(ChildClassShare.DIR_PROPERTY);
    try {
      assertThat(ChildClassShare.of(System.getProperty("java.class.path"))).isEmpty();
      assertThat(ChildJava.command("-cp", "x", "Main")).doesNotContain("-XX:SharedArchiveFile").contains("x");
    } finally {
      if (before != null) {
        System.setProperty(ChildClassShare.DIR_PROPERTY, before);
      }
    }
  }

  /** This module's test classes, copied: the test changes a file's time. */
  private Path copyOfTestClasses() throws Exception {
    Path source = Path.of(ChildClassShareProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path copy = dir.resolve("test-classes");
    Path probe = Path.of("io", "netpulse", "testbed", "ChildClassShareProbe.class");
    Files.createDirectories(copy.resolve(probe).getParent());
    Files.copy(source.resolve(probe), copy.resolve(probe));
    return copy;
  }

  private static List<String> run(ChildClassShare.Shared shared, String... flags) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(shared.flags());
    command.addAll(Arrays.asList(flags));
    command.addAll(List.of("-cp", shared.classPath(), ChildClassShareProbe.class.getName()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out.lines().toList();
  }
}
