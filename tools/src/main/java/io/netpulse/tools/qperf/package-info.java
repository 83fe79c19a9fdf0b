/**
 * qperf's {@code tcp_lat udp_lat -m 64 -vvu} (seed 000's latency test). Parser:
 * {@link io.netpulse.tools.qperf.QperfParser} (format {@code qperf}), plain or {@code -vvu}, units converted to us.
 */
package io.netpulse.tools.qperf;
