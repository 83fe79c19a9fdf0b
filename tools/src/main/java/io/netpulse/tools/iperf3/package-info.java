/**
 * iperf3 (3.12 on Debian bookworm): UDP 64-byte PPS (seed 000) and TCP bandwidth ({@code iperf3_bandwidth}). Commands:
 * {@link io.netpulse.tools.iperf3.Iperf3Commands}; one {@code iperf3 -s -p P} serves one test at a time, so every
 * client gets a port of its own. Parser: {@link io.netpulse.tools.iperf3.Iperf3Parser} (format {@code iperf3}), text or
 * {@code -J}; with {@code -P N} only the {@code [SUM]} rows count. The client's final {@code receiver} row is what the
 * server received, the cross-check beside sar.
 */
package io.netpulse.tools.iperf3;
