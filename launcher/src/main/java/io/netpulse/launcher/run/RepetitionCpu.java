package io.netpulse.launcher.run;

import io.netpulse.common.event.CpuUse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each repetition's CPU use per host, as the processor sends it on {@code cpu} when the repetition's measuring window
 * closes: read after the test's results, by when it has come (it is made from the same window, at the same close).
 */
final class RepetitionCpu {

  private RepetitionCpu() {}

  /**
   * @param hosts the hosts that ran a CPU sampler, SUT first
   * @param wait  at most this long in all for figures not there yet (one lost host must not hold every repetition)
   * @return per run id the figures found, in {@code hosts}' order; repetitions that never measured have none
   */
  static Map<String, List<CpuUse>> collect(TopicFollower<CpuUse> cpu, List<RepetitionOutcome> outcomes,
      List<String> hosts, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    Map<String, List<CpuUse>> out = new LinkedHashMap<>();
    for (RepetitionOutcome o : outcomes) {
      if (o.measuringStart() <= 0) {
        continue; // no measuring window, no figure
      }
      List<CpuUse> found = new ArrayList<>();
      for (String host : hosts) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        cpu.await(u -> o.run().equals(u.run()) && host.equals(u.host()), left).ifPresent(found::add);
      }
      if (!found.isEmpty()) {
        out.put(o.run(), found);
      }
    }
    return out;
  }
}
