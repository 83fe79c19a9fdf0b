/**
 * netpulse's connection-holding tool for the concurrent-connections test (seed 000, in place of c1000k), built as
 * its own small jar (this package, the JDK and picocli: netpulse-holder.jar) which the launcher puts on the test's
 * hosts at {@code ~/.netpulse/netpulse-holder.jar} and starts with the host's {@code java -jar}; {@code netpulse
 * connections} runs the same commands from netpulse's own jar.
 *
 * <p>{@code netpulse connections server --ports 2000:64000:2000 --block 100} listens on c1000k's 3,200 ports (100
 * from each base port) and holds what it accepts; {@code netpulse connections client --server ADDR --ports
 * 2000:64000:2000 --block 100 --duration 125s} climbs: opens connections round-robin over the ports (and over
 * {@code --source} addresses), at most {@code --in-flight} connects at a time, until something ends the climb
 * (an optional {@code --connections} cap, the client's ephemeral ports or open files, refusals, SYN timeouts, a
 * stall, time), holds them, closes them and exits 0 (also on SIGTERM/SIGINT).
 *
 * <p>Both sides are one NIO selector thread with no per-connection buffer, so 50k connections fit a 128 MiB heap;
 * the limit is file descriptors (raise with {@code prlimit --nofile=N:N} or the plan's {@code prepare.nofile}).
 * Both print one {@code connections: key=value ...} line per second, a {@code connections: summary ...} line at
 * exit, and a {@link io.netpulse.holder.ClimbLine} when a limit ends the climb (the client) or is
 * met (the server's open files), which the launcher reads to say whose limit the result is. Failures that leave
 * nothing to measure (port in use, a source address not on the host, nothing could be opened) are one line on
 * stderr and exit 2. The measured value is not taken from these lines but from {@code ss -s} on the server host.
 */
package io.netpulse.holder;
