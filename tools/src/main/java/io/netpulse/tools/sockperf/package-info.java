/**
 * sockperf ping-pong and throughput (seeds 001 and 004's latency and high-PPS tests). Parser:
 * {@link io.netpulse.tools.sockperf.SockperfParser} (format {@code sockperf}); ANSI colours stripped, {@code avg-rtt}
 * halved to a latency.
 */
package io.netpulse.tools.sockperf;
