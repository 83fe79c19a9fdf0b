/**
 * iproute2's {@code ss -s}, once per wall-clock second ({@link io.netpulse.tools.Sampler#SS_SUMMARY}): the TCP line's
 * estab count is the concurrent-connections test's figure. Parser: {@link io.netpulse.tools.ss.SsSummaryParser}
 * (format {@code ss-summary}); ss prints no time, so samples carry the line's receive time.
 *
 * <p>{@code ss -Hlntup} ({@link io.netpulse.tools.ss.ListeningSockets}): which processes listen, read by the launcher
 * to see a repetition's servers up before it starts their clients.
 */
package io.netpulse.tools.ss;
