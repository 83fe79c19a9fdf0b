package io.netpulse.launcher.run;

import io.netpulse.testkit.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Plans for the namespace test hosts. A run puts the connection holder's jar on them as on any host: the one Maven
 * built in holder/target, which is on this JVM's class path (remote.HolderJar).
 */
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
}
