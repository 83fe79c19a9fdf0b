package io.netpulse.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line for a JVM a test starts (a {@code netpulse} process, a broker, a holder): this JVM's
 * {@code java} with this JVM's {@code -XX:} flags, so that children get the test JVMs' flags (the root pom's
 * {@code test.jvm.flags}: C1 only, the serial collector) from one place. A test's child is as short-lived as the test
 * JVM and C2's compiling was a third of such a JVM's CPU. Its temporary files go to a directory of this JVM's, deleted
 * when this JVM exits: a child a test kills with SIGKILL never deletes what it extracted (RocksDB's 15 MB library,
 * lz4's: two or three a build were left in /tmp).
 */
public final class ChildJava {

  private ChildJava() {}

  /** Made on first use, deleted with what is in it when this JVM exits (the tests have stopped their children). */
  private static final class ChildTemp {
    static final Path DIR = create();

    private static Path create() {
      try {
        Path dir = Files.createTempDirectory("netpulse-test-children-");
        Runtime.getRuntime().addShutdownHook(
            new Thread(() -> DirectoryTrees.deleteQuietly(dir), "delete-child-temp"));
        return dir;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** {@code [.../bin/java, -XX:..., ...]}: append heap size, class path and main class or {@code -jar}. */
  public static List<String> command() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Djava.io.tmpdir=" + ChildTemp.DIR);
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:") && !arg.startsWith("-XX:StartFlightRecording") && !arg.contains("OnOutOfMemory")) {
        command.add(arg);
      }
    }
    return command;
  }

  /** {@link #command()} followed by {@code rest}. */
  public static List<String> command(String... rest) {
    List<String> command = command();
    command.addAll(List.of(rest));
    return command;
  }
}
