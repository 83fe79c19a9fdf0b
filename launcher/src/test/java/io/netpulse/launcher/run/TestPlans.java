package io.netpulse.launcher.run;

import io.netpulse.testkit.TestHosts;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/** Plans for the namespace test hosts, and a jar the hosts can start netpulse's own tools from. */
final class TestPlans {

  private TestPlans() {}

  /** A plan file in {@code dir} with hosts sut and peer of {@code hosts}, the given header lines and tests. */
  static Path write(Path dir, TestHosts hosts, String name, String header, String... tests) throws IOException {
    return writeWithHosts(dir, hosts, name, "", header, tests);
  }

  /** The same with more host entries ({@code extraHosts}: YAML lines indented by two spaces). */
  static Path writeWithHosts(Path dir, TestHosts hosts, String name, String extraHosts, String header, String... tests)
      throws IOException {
    StringBuilder y = new StringBuilder();
    y.append("name: ").append(name).append('\n');
    y.append("hosts:\n");
    y.append(host("sut", hosts.sut().address(), hosts));
    y.append(host("peer", hosts.peer().address(), hosts));
    if (!extraHosts.isEmpty()) {
      y.append(extraHosts).append('\n');
    }
    y.append(header).append('\n');
    y.append("tests:\n");
    for (String t : tests) {
      y.append("  - ").append(t).append('\n');
    }
    Path plan = dir.resolve(name + ".yaml");
    Files.writeString(plan, y.toString());
    return plan;
  }

  private static String host(String name, String address, TestHosts hosts) {
    return "  " + name + ": { address: " + address + ", user: " + hosts.user() + ", identity: " + hosts.identity()
        + ", known_hosts: " + hosts.knownHosts() + " }\n";
  }

  /**
   * A jar holding only a manifest whose Class-Path is this JVM's class path and whose Main-Class is
   * netpulse's: the test hosts share this machine's file system, so {@code java -jar} of it on a host
   * runs the code under test, as the shaded jar would after {@code mvn package}.
   */
  static Path pathingJar(Path dir) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.netpulse.launcher.Main");
    String cp = Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .map(p -> Path.of(p).toAbsolutePath().toUri().toString())
        .collect(Collectors.joining(" "));
    m.getMainAttributes().put(Attributes.Name.CLASS_PATH, cp);
    Path jar = dir.resolve("netpulse-test.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
      // the manifest is all
    }
    return jar;
  }
}
