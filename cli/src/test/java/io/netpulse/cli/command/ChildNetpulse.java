package io.netpulse.cli.command;

import io.netpulse.testbed.ChildJava;

import io.netpulse.cli.Main;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code netpulse ARGS} in a JVM of its own, as bin/netpulse starts it: the launcher's own logging configuration comes
 * first on the class path (the test one would otherwise win), so what it prints is what a user's terminal shows.
 */
record ChildNetpulse(int exit, String output) {

  /** Runs to its end, or destroys it after {@code timeoutSeconds} and fails. */
  static ChildNetpulse run(Path outputFile, int timeoutSeconds, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Process p = start(outputFile, env, args);
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        throw new AssertionError("netpulse " + String.join(" ", args) + " still runs after " + timeoutSeconds
            + " s:\n" + Files.readString(outputFile));
      }
      return new ChildNetpulse(p.exitValue(), Files.readString(outputFile));
    } finally {
      stop(p);
    }
  }

  /** Started; stdout and stderr both go to {@code outputFile}. The caller stops it with {@link #stop}. */
  static Process start(Path outputFile, Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>(
        ChildJava.command("-Xmx384m", "-cp", launcherClassPath(), Main.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("NETPULSE_"));
    pb.environment().putAll(env);
    return pb.start();
  }

  /** SIGTERM, as docker stop and Ctrl-C do, then SIGKILL if it does not end within 30 s. */
  static void stop(Process p) throws InterruptedException {
    if (p.isAlive()) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** The test class path with test classes last: the launcher's simplelogger.properties is the one found. */
  private static String launcherClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .sorted(Comparator.comparing(e -> e.endsWith("test-classes") || e.endsWith("test-classes" + File.separator)
            || e.endsWith("-tests.jar")))
        .reduce((a, b) -> a + File.pathSeparator + b).orElseThrow();
  }
}
