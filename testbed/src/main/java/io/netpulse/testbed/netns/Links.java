package io.netpulse.testbed.netns;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The point-to-point links of one {@link HostNetwork}: veth pairs between two of its namespaces. */
final class Links {

    private final List<NetLink> made = new ArrayList<>();
    private final Map<String, Integer> ifaces = new HashMap<>();

    /**
     * A veth pair between {@code a} and {@code b} (interfaces eth1, eth2, … in each namespace, eth0 being the bridge's),
     * the next /30 of {@code prefix}0/24: 198.19.X.0/24 where 198.18.X.0/24 is the network's subnet, so as unique on
     * the machine as that subnet, and in no route of the root namespace.
     */
    synchronized NetLink add(NetHost a, NetHost b, String prefix) {
        if (a.equals(b)) {
            throw new IllegalArgumentException("cannot link host " + a.name() + " to itself");
        }
        if (made.size() >= 63) {
            throw new IllegalArgumentException("at most 63 links per network (/30s of one /24)");
        }
        int base = 4 * made.size();
        String aIface = nextIface(a);
        String bIface = nextIface(b);
        IpTool.ip("-n", a.namespace(), "link", "add", aIface, "type", "veth", "peer", "name", bIface, "netns",
                b.namespace());
        NetLink link = new NetLink(a, prefix + (base + 1), aIface, b, prefix + (base + 2), bIface);
        for (String[] end : List.of(new String[] {a.namespace(), link.aAddress(), aIface},
                new String[] {b.namespace(), link.bAddress(), bIface})) {
            IpTool.ip("-n", end[0], "addr", "add", end[1] + "/30", "dev", end[2]);
            IpTool.ip("-n", end[0], "link", "set", end[2], "up");
        }
        made.add(link);
        return link;
    }

    synchronized List<NetLink> all() {
        return List.copyOf(made);
    }

    private String nextIface(NetHost host) {
        return "eth" + ifaces.merge(host.namespace(), 1, Integer::sum);
    }
}
