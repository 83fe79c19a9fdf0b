/**
 * netperf 2.7 and its netserver: TCP_STREAM (bandwidth), UDP_STREAM (PPS, seeds 002/003), TCP_CRR (new connections),
 * TCP_RR. Commands: {@link io.netpulse.tools.netperf.NetperfCommands} ({@code netserver -D -p P} stays in the
 * foreground so its PID is the one started; {@code -D 1} demo mode prints an interim line each second for the live
 * view and the steady stop). Parser: {@link io.netpulse.tools.netperf.NetperfParser} (format {@code netperf}); the
 * banner names the test, or {@code --test} where {@code -P 0} hides it.
 */
package io.netpulse.tools.netperf;
