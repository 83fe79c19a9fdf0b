/**
 * netpulse's connection-holding tool for the concurrent-connections test (seed 000, in place of c1000k):
 * {@code netpulse connections server --ports 2000:64000:2000} listens on every port of the range and holds what
 * it accepts; {@code netpulse connections client --server ADDR --ports 2000:64000:2000 --connections N
 * --hold 70s} opens N connections round-robin over the ports (and over {@code --source} addresses), at most
 * {@code --in-flight} connects at a time, holds them, closes them and exits 0 (also on SIGTERM/SIGINT).
 *
 * <p>Both sides are one NIO selector thread with no per-connection buffer, so 50k connections fit a 128 MiB heap;
 * the limit is file descriptors (raise with {@code prlimit --nofile=N:N} or the plan's {@code prepare.nofile}).
 * Both print one {@code connections: key=value ...} line per second and a {@code connections: summary ...} line at
 * exit; failures (port in use, too many open files, server unreachable) are one line on stderr and exit 2.
 * The measured value is not taken from these lines but from {@code ss -s} on the server host.
 */
package io.netpulse.launcher.connections;
