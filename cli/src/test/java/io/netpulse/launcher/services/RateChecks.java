package io.netpulse.launcher.services;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;

/**
 * The value checks after a fault: no per-second row on {@code netpulse.metrics}, no 10-s window on
 * {@code netpulse.windows} (latest per key) and none in the store's {@code net}/{@code netstat} and
 * {@code net_10s}/{@code netstat_10s} differs from what {@code netpulse.lines} give; every second with sar lines has its
 * row in both; the store writer catches up and keeps one row per key. Each failure names what it protects and
 * shows the first differences.
 */
final class RateChecks {

  /** Differences shown in a message; the counts cover all. */
  private static final int SHOWN = 12;

  private RateChecks() {}

  /**
   * Judges the windows from {@code sinceMs} that the reference knows completely, on the topic and in the store.
   *
   * @return the collector host's stream time in the reference (how far it reaches), null if it has no sample
   */
  static Long judge(SoftAssertions soft, PipelineChecks checks, String fault, long sinceMs, Duration storeCatchUp,
      Supplier<String> timeline) {
    PipelineChecks.TopicView topic = checks.topicView();
    ReferenceRates.Result ref = topic.reference();
    Predicate<RateKey> scope = topic.scope(sinceMs);
    Set<RateKey> sarSeconds = ref.sarSeconds().stream().filter(scope).collect(Collectors.toSet());
    Long streamTime = ref.streamTimeByHost().get(PipelineSession.HOST);
    String span = "windows from " + (sinceMs == Long.MIN_VALUE ? "the start" : RateComparison.clock(sinceMs))
        + " to " + (streamTime == null ? "?" : RateComparison.clock(streamTime - ReferenceRates.GRACE_MS)) + "Z";
    System.out.printf("restart acceptance: %s: reference from %d lines (up to %s): %d samples, %d late, %d windows "
        + "(%d judged, %d seconds with sar lines); topics: %d records, %d unreadable%n", fault, ref.lines(),
        topic.linesUpTo(), ref.samples(), ref.lateSamples(), ref.windows().size(),
        ref.windows().keySet().stream().filter(scope).count(), sarSeconds.size(), topic.records(),
        topic.unreadable());
    soft.assertThat(sarSeconds.size())
        .as("%s: the reference has seconds with sar lines to judge in %s (else the checks below prove nothing)",
            fault, span).isGreaterThanOrEqualTo(5);

    RateComparison onTopic = RateComparison.of(ref.windows(), topic.rates(), scope);
    List<RateComparison.Difference> topicWrong = onTopic.valueDifferences(sarSeconds);
    soft.assertThat(topicWrong.size())
        .as("[protects: no wrong value after a restart] %s: values on netpulse.metrics and netpulse.windows (latest "
            + "per key) that differ from those computed from netpulse.lines, %s: %s\n  %s", fault, span,
            RateComparison.describe(topicWrong, onTopic.compared(), SHOWN, topic::historyOf), timeline.get())
        .isZero();
    List<RateComparison.Difference> topicMissing = onTopic.missing(sarSeconds);
    soft.assertThat(topicMissing.size())
        .as("[protects: no missing second] %s: seconds with sar lines without their row on netpulse.metrics, %s: %s"
            + "\n  %s", fault, span, RateComparison.describe(topicMissing, sarSeconds.size(), SHOWN), timeline.get())
        .isZero();

    PipelineChecks.StoreView store = checks.storeView(topic, sinceMs, storeCatchUp);
    soft.assertThat(store.caughtUpAfterMs())
        .as("[protects: the store catches up] %s: the store writer (group %s) committed everything on metrics and windows "
            + "within %d s (lag left: %d); query error: %s", fault, PipelineChecks.STORE_GROUP,
            storeCatchUp.toSeconds(), store.writerLag(), store.error())
        .isNotNegative();
    Map<RateKey, List<RateValue>> duplicates = store.duplicates(scope);
    soft.assertThat(duplicates.size())
        .as("[protects: a replayed batch lands once] %s: keys with more than one row in net, netstat, net_10s or "
            + "netstat_10s for (timestamp, host, interface, run, source), %s; tables %s; first %d:%s", fault, span,
            store.tableInfo(), Math.min(SHOWN, duplicates.size()), duplicates.entrySet().stream().limit(SHOWN)
                .map(e -> e.getKey() + " x" + e.getValue().size() + " " + e.getValue())
                .collect(Collectors.joining("\n    ", "\n    ", "")))
        .isZero();
    RateComparison inStore = RateComparison.of(ref.windows(), store.forComparison(ref.windows()), scope);
    List<RateComparison.Difference> storeWrong = inStore.valueDifferences(sarSeconds);
    soft.assertThat(storeWrong.size())
        .as("[protects: no wrong value in the store] %s: rows of net, netstat and their 10-s windows that differ "
            + "from what netpulse.lines give, %s: %s\n  %s", fault, span,
            RateComparison.describe(storeWrong, inStore.compared(), SHOWN,
                k -> "\n      rows: " + store.rows().getOrDefault(k, List.of())), timeline.get())
        .isZero();
    List<RateComparison.Difference> storeMissing = inStore.missing(sarSeconds);
    soft.assertThat(storeMissing.size())
        .as("[protects: no missing second in the store] %s: seconds with sar lines without their row in net, %s: "
            + "%s\n  %s", fault, span, RateComparison.describe(storeMissing, sarSeconds.size(), SHOWN),
            timeline.get())
        .isZero();
    System.out.printf("restart acceptance: %s: topic: %d wrong/extra, %d missing seconds; store: caught up after %d "
        + "ms, %d duplicated windows, %d wrong/extra, %d missing seconds (%s)%n", fault, topicWrong.size(),
        topicMissing.size(), store.caughtUpAfterMs(), duplicates.size(), storeWrong.size(), storeMissing.size(), span);
    return streamTime;
  }
}
