package io.netpulse.testbed;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a command line for a JVM a test starts (a {@code netpulse} process, a broker, a holder): this JVM's
 * {@code java} with this JVM's {@code -XX:} flags, so that children get the test JVMs' flags (the root pom's
 * {@code test.jvm.flags}: C1 only, the serial collector) from one place. A test's child is as short-lived as the test
 * JVM and C2's compiling was a third of such a JVM's CPU.
 */
public final class ChildJava {

  private ChildJava() {}

  /** {@code [.../bin/java, -XX:..., ...]}: append heap size, class path and main class or {@code -jar}. */
  public static List<String> command() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
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
