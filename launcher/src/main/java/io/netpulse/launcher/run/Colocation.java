package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.remote.HostFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which test hosts are the machine netpulse runs on: the launcher, and the broker, processor and store it runs
 * in-process without {@code --bootstrap-servers}. Their load is on such a host's CPUs, and its figures can read low for
 * it (rx_pps a third low on this project's machine, issue 13). A host is that machine when its kernel's boot id
 * ({@code /proc/sys/kernel/random/boot_id}, read in preflight) is this one's: a boot id is drawn at random at each
 * boot and is not namespaced, so network namespaces and containers on this machine share it and nothing else does.
 * {@code /etc/machine-id} would not do: it belongs to an installation, so cloned VM images share it while a container
 * on this very machine has its own.
 *
 * @param localBootId this machine's boot id, null where there is none (not Linux): then no host is flagged
 * @param hosts       the plan's hosts that are this machine
 */
record Colocation(String localBootId, Set<String> hosts) {

  static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

  Colocation {
    hosts = Set.copyOf(hosts);
  }

  /** From the preflight facts of the hosts that answered, against this machine's boot id. */
  static Colocation of(Map<String, HostFacts> facts) {
    return of(facts, readBootId(BOOT_ID));
  }

  static Colocation of(Map<String, HostFacts> facts, String localBootId) {
    Set<String> same = new TreeSet<>();
    if (localBootId != null) {
      facts.forEach((host, f) -> {
        if (localBootId.equals(f.bootId())) {
          same.add(host);
        }
      });
    }
    return new Colocation(localBootId, same);
  }

  /** The test's hosts that are this machine, in the test's order (SUT first). */
  List<String> of(TestSpec test) {
    return HostChecks.hostsOf(test).stream().filter(hosts::contains).toList();
  }

  /** For the progress output once preflight is done, or null when no host is this machine. */
  String warning() {
    if (hosts.isEmpty()) {
      return null;
    }
    return "host" + (hosts.size() == 1 ? " " : "s ") + String.join(", ", new TreeSet<>(hosts))
        + (hosts.size() == 1 ? " is" : " are")
        + " the machine running netpulse (same kernel boot id): its load is on their CPUs, and every repetition on "
        + (hosts.size() == 1 ? "it" : "them") + " is flagged";
  }

  static String readBootId(Path file) {
    try {
      String id = Files.readString(file).strip();
      return id.isEmpty() ? null : id;
    } catch (IOException | RuntimeException e) {
      return null; // no /proc (not Linux): nothing to compare with
    }
  }
}
