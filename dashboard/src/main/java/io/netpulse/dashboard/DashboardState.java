package io.netpulse.dashboard;

import io.netpulse.common.compare.ExecutionIndex;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.event.WideSample;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the dashboard knows, updated by the feed thread and read by HTTP handlers: runs, results, rates. Each update is
 * also handed to a {@link Broadcast} (the SSE streams).
 */
final class DashboardState {

  /** Where updates go once stored: event-bus addresses and JSON-ready values. */
  interface Broadcast {
    void send(String event, Object value);
  }

  static final String RUN = "run";
  static final String RATE = "rate";
  static final String STEADY = "steady";
  static final String RESULT = "result";
  /** The window name of a per-second point, as the page and the API name it. */
  static final String SECOND = "1s";

  private final RunBoard runs = new RunBoard();
  private final ResultBoard results = new ResultBoard();
  private final ExecutionIndex executions;
  private final RateStore rates = new RateStore();
  private final Map<String, LongAdder> consumed = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();
  private volatile Broadcast broadcast = (event, value) -> { };

  /** @param resultsTopic the results topic's name: compare's sides are named by it, as {@code netpulse compare} names them */
  DashboardState(String resultsTopic) {
    this.executions = new ExecutionIndex(resultsTopic);
  }

  void broadcastTo(Broadcast broadcast) {
    this.broadcast = broadcast;
  }

  RunBoard runs() {
    return runs;
  }

  ResultBoard results() {
    return results;
  }

  /** Every execution's results, for the compare view: the same lookup as {@code netpulse compare}'s. */
  ExecutionIndex executions() {
    return executions;
  }

  RateStore rates() {
    return rates;
  }

  void run(RunEvent event) {
    if (event == null || event.run() == null || event.phase() == null) {
      throw new IllegalArgumentException("a run event needs run and phase");
    }
    broadcast.send(RUN, runs.add(event));
  }

  void steady(SteadyEvent event) {
    if (event == null || event.run() == null) {
      throw new IllegalArgumentException("a steady event needs run");
    }
    RunView view = runs.steady(event);
    broadcast.send(STEADY, view != null ? view : event);
  }

  /** @param key the record's key on the results topic: a tombstone (null event) removes what the key held */
  void result(String key, ResultEvent event) {
    if (event == null) {
      executions.add(key, null); // a compaction tombstone
      return;
    }
    if (event.plan() == null || event.test() == null || event.metric() == null) {
      throw new IllegalArgumentException("a result needs plan, test and metric");
    }
    results.add(event);
    executions.add(key, event);
    broadcast.send(RESULT, event);
  }

  /**
   * A per-second row of {@code metrics}: each field is that second's rate of its series (a per-second sampler's row is
   * its 1-s rate, nothing averages it again), shown and kept as a 1-s point. A tool's whole-run summary row is not a
   * second's value and is left out.
   */
  void metric(WideSample row) {
    String host = row == null ? null : row.tags().get("host");
    if (host == null) {
      throw new IllegalArgumentException("a metrics row needs a host tag");
    }
    if (row.summaryRow()) {
      return;
    }
    String iface = row.iface();
    row.fields().forEach((metric, value) -> {
      RateEvent rate = new RateEvent(RateEvent.SCHEMA, host, iface, metric, row.units().get(metric), SECOND,
          row.time(), row.time() + 1_000, value, value, value, 1);
      rates.add(rate);
      broadcast.send(RATE, rate);
    });
  }

  void counted(String topic) {
    consumed.computeIfAbsent(topic, t -> new LongAdder()).increment();
  }

  void skipped(String topic) {
    skipped.computeIfAbsent(topic, t -> new LongAdder()).increment();
  }

  Map<String, Long> consumedByTopic() {
    return snapshot(consumed);
  }

  Map<String, Long> skippedByTopic() {
    return snapshot(skipped);
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
    Map<String, Long> out = new java.util.TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
