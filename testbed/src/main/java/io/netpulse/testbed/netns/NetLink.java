package io.netpulse.testbed.netns;

/**
 * A point-to-point link between two hosts of a {@link HostNetwork}, outside its bridge: one veth pair with an end in
 * each namespace and none in the root namespace, so the machine itself has no path to these addresses.
 *
 * @param a         one host
 * @param aAddress  its address on the link (IPv4, no prefix)
 * @param aIface    its interface on the link, inside its namespace
 * @param b         the other host
 * @param bAddress  its address on the link
 * @param bIface    its interface on the link
 */
public record NetLink(NetHost a, String aAddress, String aIface, NetHost b, String bAddress, String bIface) {
}
