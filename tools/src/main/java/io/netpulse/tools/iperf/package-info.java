/**
 * iperf 2 (seed 002's {@code iperf -c SUT -b 2048M -P queues}). Commands:
 * {@link io.netpulse.tools.iperf.IperfCommands}; with {@code -i 1 --sum-only -f k} each client prints one row a second
 * for all its streams, which the steady stop reads. Parser: {@link io.netpulse.tools.iperf.IperfParser} (format
 * {@code iperf}).
 */
package io.netpulse.tools.iperf;
