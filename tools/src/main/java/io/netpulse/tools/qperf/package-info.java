/**
 * qperf's {@code tcp_lat udp_lat -m 64 -vvu} (seed 000's latency test). Parser:
 * {@link io.netpulse.tools.qperf.QperfParser} (format {@code qperf}), plain or {@code -vvu}, units converted to us;
 * {@link io.netpulse.tools.qperf.QperfLoopParser} (formats {@code qperf-tcp_lat}, {@code qperf-udp_lat}) for one test
 * run as a loop of 1-s tests, one line at a time, as messages/s for the precision stop.
 */
package io.netpulse.tools.qperf;
