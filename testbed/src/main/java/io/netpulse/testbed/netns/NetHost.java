package io.netpulse.testbed.netns;

/**
 * One test host: a network namespace with one veth interface attached to its network's bridge.
 *
 * @param name       logical name given by the caller ({@code peer}, {@code sut}, {@code h1} …)
 * @param namespace  Linux network namespace name, as used by {@code ip netns exec}
 * @param address    the host's IPv4 address (dotted quad, no prefix)
 * @param iface      interface name inside the namespace (what {@code sar -n DEV} and {@code /proc/net/dev} show)
 * @param bridgePort the root-namespace end of the veth pair, enslaved to the bridge
 */
public record NetHost(String name, String namespace, String address, String iface, String bridgePort) {
}
