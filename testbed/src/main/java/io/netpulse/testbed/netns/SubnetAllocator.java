package io.netpulse.testbed.netns;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks a free 198.18.X.0/24. Free means no IPv4 address on this machine (root namespace) overlaps it; every
 * HostNetwork puts its bridge address in its /24, so networks of other JVMs are seen too. The choice and the
 * claim (assigning the bridge address) happen under a machine-wide file lock so parallel JVMs never pick alike.
 */
final class SubnetAllocator {
    static final Path LOCK_FILE = Path.of("/run/lock/netpulse-hostnetwork.lock");
    private static final Pattern INET = Pattern.compile("\\binet (\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)/(\\d+)");
    private static final Object JVM_LOCK = new Object(); // FileLock is per process, not per thread

    private SubnetAllocator() {
    }

    /** Calls {@code claim} with a free third octet X (198.18.X.0/24) while holding the lock; returns its result. */
    static <T> T allocate(IntFunction<T> claim) {
        synchronized (JVM_LOCK) {
            try {
                Files.createDirectories(LOCK_FILE.getParent());
                try (FileChannel channel = FileChannel.open(LOCK_FILE, StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                     FileLock ignored = channel.lock()) {
                    return claim.apply(freeOctet(usedNetworks(IpTool.ip("-o", "-4", "addr", "show"))));
                }
            } catch (IOException e) {
                throw new HostNetworkException("cannot lock " + LOCK_FILE + " to choose a subnet: " + e.getMessage(), e);
            }
        }
    }

    /** {address, prefix length} of every IPv4 address in {@code ip -o -4 addr} output. */
    static List<long[]> usedNetworks(String ipAddrOutput) {
        List<long[]> used = new ArrayList<>();
        Matcher m = INET.matcher(ipAddrOutput);
        while (m.find()) {
            long addr = 0;
            for (int i = 1; i <= 4; i++) {
                addr = (addr << 8) | Integer.parseInt(m.group(i));
            }
            used.add(new long[] {addr, Integer.parseInt(m.group(5))});
        }
        return used;
    }

    static int freeOctet(List<long[]> used) {
        // Random start spreads parallel allocations; .0 and .255 are skipped to keep addresses unsurprising.
        int start = ThreadLocalRandom.current().nextInt(1, 255);
        for (int i = 0; i < 254; i++) {
            int octet = 1 + (start - 1 + i) % 254;
            if (used.stream().noneMatch(n -> overlaps(n[0], (int) n[1], candidate(octet), 24))) {
                return octet;
            }
        }
        throw new HostNetworkException("no free /24 left in 198.18.0.0/16 on this machine: "
                + "close other host networks or remove stale 'np*' bridges (ip -o -4 addr)");
    }

    static long candidate(int octet) {
        return (198L << 24) | (18L << 16) | ((long) octet << 8);
    }

    static boolean overlaps(long a, int prefixA, long b, int prefixB) {
        int prefix = Math.min(prefixA, prefixB);
        long mask = prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
        return (a & mask) == (b & mask);
    }
}
