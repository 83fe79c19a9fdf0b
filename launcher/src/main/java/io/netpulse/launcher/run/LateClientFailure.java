package io.netpulse.launcher.run;

import io.netpulse.launcher.procedure.ResultRule;
import java.util.List;
import java.util.Optional;

/**
 * Whether a client that exited with a failure fails its repetition. One that failed only after its own traffic time,
 * in a test whose every value is read from the hosts' samplers (sar's rows over the measuring window) and not from
 * any client's output, does not: the window it loaded is whole, and the seed's procedure by hand reads sar, not the
 * clients, so would report the same figure. It is told, with what the client said, and the repetition goes on.
 *
 * <p>Seen on the capped bed (2026-12-04): 128 netperf TCP_STREAM clients through a 40-Mbit/s tbf, the seed's rx
 * bandwidth procedure by hand, 24 of the 128 exited 1 right after their 180 s with {@code recv_response_timed_n: no
 * response received. errno 110} (or {@code errno 4} after {@code catcher: timer popped}): at 0.3 Mbit/s a stream some
 * streams sat in TCP's retransmission back-off for minutes, and netserver's end-of-test answer, sent once the
 * stream's queued data had drained, did not come within netperf's wait. The link was full all along.
 *
 * <p>One that failed inside its time, in such a test, ends the measuring window where it stopped loading the hosts
 * ({@link #lostLoad}): until then the hosts carried the plan's load, so sar's rows up to there are the value, and
 * rows after it, with fewer streams, are not counted (the schedule fails the repetition if that leaves less than half
 * the window). Seen on the same bed: of 128 streams through the 40-Mbit/s cap, one now and then ended with {@code
 * recv_response_timed_n: no response received. errno 110 counter 0} some seconds before its end, its last interim
 * line tens of seconds earlier, starved by TCP's back-off beside 127 others (docs/running.md, Faults).
 */
final class LateClientFailure {

  /** Clock slack between the client's release stamp and its own start and end. */
  static final long SLACK_MS = 250;

  private LateClientFailure() {}

  /** What is taken off the client's end for the window's: sar's row for the second it ended in may hold it. */
  static final long ROW_MS = 1_000;

  /**
   * Where the window ends because this failure took the client's load away (epoch ms, a sar row before its exit was
   * seen), or empty when the failure is not of that kind: it fails the repetition, or {@link #excuse} excuses it.
   */
  static java.util.OptionalLong lostLoad(long startedMs, long endedMs, long ownSeconds, List<ResultRule> results) {
    if (!readFromSamplers(results)) {
      return java.util.OptionalLong.empty();
    }
    if (startedMs <= 0 || endedMs <= 0 || endedMs + SLACK_MS >= startedMs + ownSeconds * 1_000) {
      return java.util.OptionalLong.empty();
    }
    return java.util.OptionalLong.of(endedMs - ROW_MS);
  }

  /** Whether every value of the test is read from the hosts' samplers (sar's rows), none from a client's figure. */
  private static boolean readFromSamplers(List<ResultRule> results) {
    return !results.isEmpty() && results.stream().allMatch(r -> r.how().fromSamples());
  }

  /** When it ended in its own time ({@code " 172.4 s into its 185 s"}), or "" when that is not known. */
  static String when(long startedMs, long endedMs, long ownSeconds) {
    if (startedMs <= 0 || endedMs < startedMs) {
      return "";
    }
    return String.format(java.util.Locale.ROOT, " %.1f s into its %d s", (endedMs - startedMs) / 1000.0, ownSeconds);
  }

  /**
   * Why this failure does not fail the repetition, or empty when it does.
   *
   * @param startedMs  local epoch ms of the client's release
   * @param endedMs    local epoch ms its exit was seen
   * @param ownSeconds the client's own run time (its {@code -l}, {@code -t})
   * @param results    the test's result rules
   */
  static Optional<String> excuse(long startedMs, long endedMs, long ownSeconds, List<ResultRule> results) {
    if (!readFromSamplers(results)) {
      return Optional.empty(); // a value made from clients' figures is short of this one's
    }
    if (startedMs <= 0 || endedMs + SLACK_MS < startedMs + ownSeconds * 1_000) {
      return Optional.empty(); // it ended inside its traffic time: the load the window measured was not the plan's
    }
    String sources = String.join(", ", results.stream().map(ResultRule::source).distinct().toList());
    return Optional.of("after its " + ownSeconds + " s of traffic; not counted against the repetition: its value is "
        + "read from " + sources + " over a window the client kept loaded");
  }
}
