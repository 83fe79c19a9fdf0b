/**
 * {@code /proc/net/dev} and the {@code cpu} lines of {@code /proc/stat}, read once per wall-clock second
 * ({@link io.netpulse.tools.Sampler#PROC_NET_DEV}, {@link io.netpulse.tools.Sampler#PROC_STAT}): interface rates on hosts
 * without sysstat, and each host's CPU use during a repetition (every Linux host has /proc/stat). Parsers:
 * {@link io.netpulse.tools.proc.ProcNetDevParser} ({@code proc-net-dev}), {@link io.netpulse.tools.proc.ProcStatParser}
 * ({@code proc-stat}); both turn successive cumulative snapshots into rates.
 */
package io.netpulse.tools.proc;
