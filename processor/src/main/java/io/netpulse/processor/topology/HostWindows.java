package io.netpulse.processor.topology;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One host's rate buckets and its own clock. Windows close by the host's own sample time, not by the newest time
 * of any host on the partition: hosts share partitions, and after a Kafka outage each collector sends its backlog
 * in turn, so one host's lines can arrive minutes behind another's. Against a clock shared by the partition they
 * would all be "late" and dropped; against their own they are on time.
 */
final class HostWindows {

  final String host;
  /** series key (host/iface/metric) → its buckets by second */
  final Map<String, TreeMap<Long, SecondBucket>> series = new HashMap<>();
  /** series with a window changed since it was last emitted */
  final Set<String> dirty = new HashSet<>();
  /** series whose next 10-s window waits for a later second or for its close */
  final Set<String> waiting = new HashSet<>();
  /** the newest sample time of this host, epoch ms */
  long timeMs = Long.MIN_VALUE;
  /**
   * A second up to which every window counts as closed, though the host's clock says otherwise: the host was
   * idle, its windows went out with what they held and its buckets were dropped. Long.MIN_VALUE: none.
   */
  long forgottenThroughMs = Long.MIN_VALUE;
  /** the second the close time was in when this host's windows were last emitted for closing */
  long lastClosedSecond = Long.MIN_VALUE;
  long lastNewestClosedTen = Long.MIN_VALUE;
  long lastEvictedSecond = Long.MIN_VALUE;
  /** wall-clock time of this host's last sample (or of the restore), for the idle rule */
  long lastSampleWallMs;

  HostWindows(String host) {
    this.host = host;
  }

  /** Windows ending at or before this have closed (the host's clock minus the grace). */
  long closeMs(long graceMs) {
    return timeMs == Long.MIN_VALUE ? Long.MIN_VALUE : timeMs - graceMs;
  }

  /** The earliest 10-s window start a new sample may still change. */
  long firstOpenTen(long graceMs) {
    long open = RateWindows.firstOpenTen(closeMs(graceMs));
    return forgottenThroughMs == Long.MIN_VALUE ? open : Math.max(open, forgottenThroughMs + RateWindows.SECOND_MS);
  }
}
