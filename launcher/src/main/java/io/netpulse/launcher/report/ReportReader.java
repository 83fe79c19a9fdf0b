package io.netpulse.launcher.report;

import io.netpulse.common.catalog.Catalog;
import io.netpulse.common.catalog.Metric;
import io.netpulse.common.catalog.Sources;

import io.netpulse.common.Topics;
import io.netpulse.common.event.CpuUse;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.UserError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one plan's report off the topics: the latest result per plan/test/metric ({@code results} is
 * compacted, read from its beginning), the lifecycle of the runs those results came from ({@code runs}),
 * each host's CPU use in those runs ({@code cpu}; none from before it existed), then the SUT's 1-s rows over each
 * repetition's measuring window ({@code metrics}, read from just before the earliest window).
 */
public final class ReportReader {

  /**
   * Per-second records are written within seconds of their second (a sampler's row a second late, a busy processor
   * some more); a minute's margin either side of the runs' windows covers that.
   */
  private static final long RATES_MARGIN_MS = 60_000;

  private final Topics topics;
  private final TopicSnapshot snapshot;

  public ReportReader(KafkaConnection kafka, Topics topics, Duration timeout) {
    this.topics = topics;
    this.snapshot = new TopicSnapshot(kafka, timeout);
  }

  /**
   * @param testOrder the plan's test names in plan order when the plan file is known, else empty
   * @throws UserError when {@code results} holds nothing for the plan
   */
  public PlanReport read(String plan, List<String> testOrder) {
    Map<String, ResultEvent> latest = new LinkedHashMap<>();
    // results keeps every execution's (schema 2 keys plan/execution/test/metric): the newest per test and metric
    latestResults(r -> plan.equals(r.plan())).values()
        .forEach(r -> latest.merge(r.latestKey(), r, (old, r2) -> r2.supersedes(old) ? r2 : old));
    if (latest.isEmpty()) {
      throw new UserError("no results for plan '" + plan + "' on " + topics.results()
          + " (run it first with 'netpulse run', or check the plan name, --bootstrap-servers and --topic-prefix)");
    }
    return report(plan, latest, testOrder);
  }

  /**
   * The report of one execution ({@code PLAN-yyyyMMddTHHmmssZ}): its results only, whichever plan it belongs to.
   *
   * @throws UserError when {@code results} holds nothing of it
   */
  public PlanReport readExecution(String execution) {
    Map<String, ResultEvent> latest = latestResults(r -> execution.equals(r.execution()));
    if (latest.isEmpty()) {
      throw new UserError("no results of execution '" + execution + "' on " + topics.results()
          + " (it keeps each execution for the topic's retention; check the execution id as 'netpulse run' printed"
          + " it, --bootstrap-servers and --topic-prefix)");
    }
    return report(latest.values().iterator().next().plan(), latest, List.of());
  }

  /** The latest result per plan/execution/test/metric among those {@code wanted}. */
  private Map<String, ResultEvent> latestResults(java.util.function.Predicate<ResultEvent> wanted) {
    Map<String, ResultEvent> latest = new LinkedHashMap<>();
    Map<String, String> byRecordKey = new java.util.HashMap<>();
    snapshot.read(topics.results(), ResultEvent.class, (key, r) -> {
      if (r == null) {
        String dropped = byRecordKey.remove(key); // a tombstone: the key was deleted
        if (dropped != null) {
          latest.remove(dropped);
        }
      } else if (wanted.test(r) && r.test() != null && r.metric() != null && r.values() != null) {
        String k = r.key(); // plan/execution/test/metric
        latest.put(k, r);
        byRecordKey.put(key, k);
      }
    });
    if (latest.values().stream().map(ResultEvent::execution).distinct().count() > 1) {
      // a plan's results from several executions: each test's latest execution, as the compacted topic keeps it
      Map<String, ResultEvent> newest = new LinkedHashMap<>();
      for (ResultEvent r : latest.values()) {
        newest.merge(r.key(), r, (x, y) -> y.ts() >= x.ts() ? y : x);
      }
      return newest;
    }
    return latest;
  }

  private PlanReport report(String plan, Map<String, ResultEvent> latest, List<String> testOrder) {
    Set<String> runIds = new HashSet<>();
    latest.values().forEach(r -> runIds.addAll(r.runs() == null ? List.of() : r.runs()));
    RunLifecycles lifecycles = new RunLifecycles();
    snapshot.read(topics.runs(), RunEvent.class, (key, e) -> {
      if (e != null && e.phase() != null && runIds.contains(e.run())) { // a phase-less record says nothing
        lifecycles.add(e);
      }
    });
    snapshot.read(topics.cpu(), CpuUse.class, (key, u) -> {
      if (u != null && u.host() != null && u.all() != null && runIds.contains(u.run())) {
        lifecycles.add(u); // in order per run: the latest per host is the corrected one
      }
    });

    List<Draft> drafts = new ArrayList<>();
    SecondRates rates = new SecondRates();
    for (ResultEvent r : latest.values()) {
      List<Repetition> reps = (r.runs() == null ? List.<String>of() : r.runs()).stream()
          .map(lifecycles::repetition).flatMap(Optional::stream)
          .sorted(Comparator.comparingInt(Repetition::repetition)).toList();
      String type = reps.stream().map(Repetition::type).filter(t -> t != null).findFirst().orElse(r.test());
      Optional<Metric> rule = Catalog.metricsOf(type).stream()
          .filter(x -> x.metric().equals(r.metric())).findFirst();
      // only values made of per-second samples have a series; tool figures (latency, TCP_CRR) have bars only
      Metric perSecond = rule.filter(Metric::fromSamples).orElse(null);
      if (perSecond != null) {
        String measurement = Sources.measurementOf(perSecond.source());
        reps.forEach(rep -> rates.want(rep, measurement, perSecond.sourceMetric()));
      }
      drafts.add(new Draft(r, type, perSecond, reps, ruleIndex(type, r.metric())));
    }
    if (rates.wantsAny()) {
      snapshot.read(topics.metrics(), WideSample.class, rates.earliestStart() - RATES_MARGIN_MS,
          rates.latestEnd() + RATES_MARGIN_MS, (key, e) -> rates.add(e));
    }
    List<MetricSection> sections = new ArrayList<>();
    drafts.stream().sorted(order(testOrder)).forEach(d -> sections.add(d.section(rates)));
    return new PlanReport(plan, topics.results(), System.currentTimeMillis(), sections);
  }

  /** Records skipped because they were not the topic's event (a foreign producer). */
  public int unreadableRecords() {
    return snapshot.unreadable();
  }

  /** Plan order when known, then the order the tests ran in, then the type's metric order. */
  private static Comparator<Draft> order(List<String> testOrder) {
    return Comparator.<Draft>comparingInt(d -> {
          int i = testOrder.indexOf(d.result.test());
          return i < 0 ? Integer.MAX_VALUE : i;
        })
        .thenComparingLong(Draft::firstStart)
        .thenComparing(d -> d.result.test())
        .thenComparingInt(d -> d.ruleIndex)
        .thenComparing(d -> d.result.metric());
  }

  private static int ruleIndex(String type, String metric) {
    List<Metric> rules = Catalog.metricsOf(type);
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).metric().equals(metric)) {
        return i;
      }
    }
    return rules.size();
  }

  private record Draft(ResultEvent result, String type, Metric perSecond, List<Repetition> reps,
      int ruleIndex) {

    long firstStart() {
      return reps.stream().mapToLong(Repetition::measuringStart).filter(t -> t > 0).min().orElse(result.ts());
    }

    MetricSection section(SecondRates rates) {
      if (perSecond == null) {
        return new MetricSection(result, type, null, null, reps, List.of());
      }
      String measurement = Sources.measurementOf(perSecond.source());
      List<SecondSeries> series = reps.stream().map(rep -> rates.series(rep, measurement, perSecond.sourceMetric()))
          .flatMap(Optional::stream).toList();
      return new MetricSection(result, type, perSecond.sourceMetric(), perSecond.unit(), reps, series);
    }
  }
}
