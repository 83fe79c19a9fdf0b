package io.netpulse.launcher.plan;

import java.util.List;

/**
 * What a traffic test adds to its type's procedure so that a plan can say what a seed says (issue 13).
 *
 * @param sarHosts         hosts that run {@code sar -n DEV 1} during the test, the SUT first when it is one of them
 *                         (seed 001 samples all four machines; a sender's rows show the load it offered)
 * @param noDelay          netperf's test-specific {@code -D} (TCP_NODELAY), after {@code --} (seeds 001, 004)
 * @param sharedServerPort udp_stream: one {@code netserver} on {@code port} for every sender (seed 002) instead of
 *                         one per instance on {@code port + i} (seed 003)
 * @param qperfLoop        latency ({@code qperf_loop: true}): qperf's tests as loops of 1-s tests that can each stop
 *                         when precise, instead of the seed's one run of each (docs/steady-state.md)
 */
public record TrafficOptions(List<String> sarHosts, boolean noDelay, boolean sharedServerPort, boolean qperfLoop) {

  /** Nothing added: tests that take none of these keys. */
  public static final TrafficOptions NONE = new TrafficOptions(List.of(), false, false, false);

  public TrafficOptions {
    sarHosts = List.copyOf(sarHosts);
  }
}
