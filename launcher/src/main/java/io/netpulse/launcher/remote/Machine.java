package io.netpulse.launcher.remote;

import java.util.Map;

/**
 * What a host is made of, for the provenance of its figures (preflight reads it in the same probe as the rest).
 * A fact that could not be read is "unknown" (text) or null (numbers).
 *
 * @param cpuModel  /proc/cpuinfo's model name (lscpu's where that has none, e.g. arm64)
 * @param vcpus     online CPUs
 * @param memoryKib MemTotal, KiB
 * @param nicDriver the driver of the interface towards the peer; "unknown" for virtual devices (veth, lo)
 * @param txQueues  its transmit queues
 * @param mtuBytes  its MTU
 * @param offloads  {@code ethtool -k IFACE}, top-level features ({@link EthtoolFeatures}); null when ethtool is not on
 *                  the host, empty when it said nothing usable
 * @param offloadsNote why the offloads are unknown, for the preflight line; null when they are known
 */
public record Machine(String cpuModel, Integer vcpus, Long memoryKib, String nicDriver, Integer txQueues,
    Integer mtuBytes, Map<String, String> offloads, String offloadsNote) {

  public Machine {
    offloads = offloads == null ? null : java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(offloads));
  }
}
