/**
 * iputils ping ({@code ping -c N SUT} after qperf in the latency test). Parser:
 * {@link io.netpulse.tools.ping.PingParser} (format {@code ping}); the summary's rtt avg is the result.
 */
package io.netpulse.tools.ping;
