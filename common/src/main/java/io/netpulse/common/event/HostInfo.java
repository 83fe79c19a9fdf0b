package io.netpulse.common.event;

import java.util.Map;

/**
 * What a host was when it was measured, as the launcher's preflight found it: travels with run events and
 * results so that a figure keeps what it was measured on. A fact that could not be read is "unknown" (strings) or
 * null (numbers).
 *
 * @param host         the plan's name of the host
 * @param kernel       {@code uname -r}
 * @param cpuModel     /proc/cpuinfo's model name
 * @param vcpus        online CPUs ({@code nproc})
 * @param memoryKib    MemTotal of /proc/meminfo, KiB
 * @param iface        interface the route to the peer leaves by
 * @param nicDriver    its driver (/sys/class/net/IFACE/device/driver; "unknown" for virtual devices)
 * @param rxQueues     its receive queues
 * @param txQueues     its transmit queues
 * @param mtuBytes     its MTU
 * @param offloads     {@code ethtool -k IFACE}: feature → on/off (with "[fixed]" where ethtool says so); null (shown
 *                     "unknown") when ethtool is not installed
 * @param toolVersions first meaningful line of each tool's version output, by program name
 */
public record HostInfo(String host, String kernel, String cpuModel, Integer vcpus, Long memoryKib, String iface,
    String nicDriver, Integer rxQueues, Integer txQueues, Integer mtuBytes, Map<String, String> offloads,
    Map<String, String> toolVersions) {

  public HostInfo {
    offloads = offloads == null ? null : sorted(offloads);
    toolVersions = toolVersions == null ? Map.of() : sorted(toolVersions);
  }

  /** Sorted, so that the JSON of two hosts reads alike. */
  private static Map<String, String> sorted(Map<String, String> m) {
    return java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(m));
  }
}
