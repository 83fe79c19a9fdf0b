package io.netpulse.launcher.remote;

import java.util.List;
import java.util.Map;

/**
 * What preflight found on a host.
 *
 * @param toolVersions first meaningful line of each present tool's version output, by program name
 * @param missingTools programs not on the remote PATH
 * @param iface        interface the route to the peer leaves by
 * @param queues       its receive queues (/sys/class/net/IFACE/queues/rx-*)
 * @param nofile       open-files limit (ulimit -n) of a login shell; -1 when "unlimited"
 * @param nrOpen       fs.nr_open
 * @param fileMax      fs.file-max
 * @param kernel       uname -r
 * @param bootId       the running kernel's boot id ({@code /proc/sys/kernel/random/boot_id}): equal on two hosts, they
 *                     are one machine (network namespaces, containers); null when unreadable
 * @param machine      CPU, memory and NIC details for provenance; null when not read
 */
public record HostFacts(String host, Map<String, String> toolVersions, List<String> missingTools, String iface,
    int queues, long nofile, long nrOpen, long fileMax, String kernel, String bootId, Machine machine) {

  public HostFacts {
    toolVersions = Map.copyOf(toolVersions);
    missingTools = List.copyOf(missingTools);
  }

  /** Without machine details. */
  public HostFacts(String host, Map<String, String> toolVersions, List<String> missingTools, String iface,
      int queues, long nofile, long nrOpen, long fileMax, String kernel, String bootId) {
    this(host, toolVersions, missingTools, iface, queues, nofile, nrOpen, fileMax, kernel, bootId, null);
  }

  /** As it travels with run events and results. */
  public io.netpulse.common.event.HostInfo info() {
    Machine m = machine == null ? new Machine(UNKNOWN, null, null, UNKNOWN, null, null, null, null) : machine;
    return new io.netpulse.common.event.HostInfo(host, kernel == null || kernel.isEmpty() ? UNKNOWN : kernel,
        m.cpuModel(), m.vcpus(), m.memoryKib(), iface, m.nicDriver(), queues, m.txQueues(), m.mtuBytes(),
        m.offloads(), toolVersions);
  }

  /** What a fact that could not be read says. */
  public static final String UNKNOWN = "unknown";

  /** Without a boot id. */
  public HostFacts(String host, Map<String, String> toolVersions, List<String> missingTools, String iface,
      int queues, long nofile, long nrOpen, long fileMax, String kernel) {
    this(host, toolVersions, missingTools, iface, queues, nofile, nrOpen, fileMax, kernel, null);
  }
}
