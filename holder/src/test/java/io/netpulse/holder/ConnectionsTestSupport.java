package io.netpulse.holder;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Shared by the connection tool's tests: free ports, counting sockets with ss, child JVMs of the built jar. */
final class ConnectionsTestSupport {

  private ConnectionsTestSupport() {}

  /**
   * A server listening on {@code count} ports somewhere in 20000–32000 (below the ephemeral range, so no client
   * socket's local port can look like a server port); other engineers share the machine, so retry when taken.
   */
  static ConnectionServer serverOnFreePorts(int count, int step, PrintWriter out) {
    ConnectionsException last = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      int first = 20_000 + ThreadLocalRandom.current().nextInt(12_000 - count * step);
      ConnectionServer server = new ConnectionServer(null,
          PortSet.of(new PortRange(first, first + (count - 1) * step, step)), out);
      try {
        server.open();
        return server;
      } catch (ConnectionsException taken) {
        last = taken;
      }
    }
    throw new IllegalStateException("no free ports found: " + last.getMessage());
  }

  static PortRange rangeOf(ConnectionServer server) {
    List<Integer> ports = server.boundPorts();
    int step = ports.size() > 1 ? ports.get(1) - ports.get(0) : 1;
    return new PortRange(ports.get(0), ports.get(ports.size() - 1), step);
  }

  /** Established TCP sockets whose local port is one of {@code ports}: the server's side, as ss counts them. */
  static int establishedOnServerPorts(PortRange ports, List<String> prefix) throws IOException, InterruptedException {
    String filter = "( " + java.util.Arrays.stream(ports.ports()).mapToObj(p -> "sport = :" + p)
        .collect(Collectors.joining(" or ")) + " )";
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of("ss", "-Htn", "state", "established", filter));
    String output = run(command);
    return (int) output.lines().filter(l -> !l.isBlank()).count();
  }

  /** {@code ss -s}'s TCP estab count (what the procedure's result is read from). */
  static long ssSummaryEstab(List<String> prefix) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(prefix);
    command.addAll(List.of("ss", "-s"));
    String output = run(command);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("estab (\\d+)").matcher(output);
    if (!m.find()) {
      throw new IllegalStateException("no 'estab N' in ss -s output: " + output);
    }
    return Long.parseLong(m.group(1));
  }

  static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(command + " failed: " + output);
      }
      return output;
    } finally {
      p.destroyForcibly();
    }
  }

  /**
   * This test JVM's java running the jar the build made, as a host runs it ({@code java -jar
   * netpulse-holder.jar ARGS}), after {@code prefix}.
   */
  static List<String> jarCommand(List<String> prefix, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", builtJar().toString()));
    command.addAll(List.of(args));
    return command;
  }

  /** target/netpulse-holder.jar, which the build makes right after compiling (holder/pom.xml). */
  static Path builtJar() {
    try {
      Path classes = Path.of(HolderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path jar = classes.resolveSibling("netpulse-holder.jar");
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException(jar + " is missing: run the tests through Maven (mvn -pl holder test), "
            + "which makes it before the tests");
      }
      return jar;
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Starts a child with stdout and stderr in files under {@code dir}, named {@code name}.out / .err. */
  static Process start(List<String> command, Path dir, String name) throws IOException {
    return new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile()).start();
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stops a child we started, by its own handle: SIGTERM, then SIGKILL after a grace. */
  static void stop(Process p) throws InterruptedException {
    if (p == null) {
      return;
    }
    p.destroy();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Runs {@code HolderMain}'s command line in-process with captured output. */
  record Outcome(int exit, String out, String err) {}

  static Outcome runMain(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    picocli.CommandLine cli = HolderMain.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Outcome(exit, out.toString(), err.toString());
  }
}
