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
 */
public record HostFacts(String host, Map<String, String> toolVersions, List<String> missingTools, String iface,
    int queues, long nofile, long nrOpen, long fileMax, String kernel, String bootId) {

  public HostFacts {
    toolVersions = Map.copyOf(toolVersions);
    missingTools = List.copyOf(missingTools);
  }

  /** Without a boot id. */
  public HostFacts(String host, Map<String, String> toolVersions, List<String> missingTools, String iface,
      int queues, long nofile, long nrOpen, long fileMax, String kernel) {
    this(host, toolVersions, missingTools, iface, queues, nofile, nrOpen, fileMax, kernel, null);
  }
}
