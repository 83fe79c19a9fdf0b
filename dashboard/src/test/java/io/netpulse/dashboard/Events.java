package io.netpulse.dashboard;

import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.SteadyEvent;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Events shaped as the launcher and processor write them, for the dashboard's tests. */
final class Events {

  private Events() {}

  static RunEvent run(String run, String plan, String test, String type, int rep, RunEvent.Phase phase, long ts,
      String sut, String iface) {
    return RunEvent.ofRepetition(run, plan, test, rep, phase, ts, null, type, sut, iface).inExecution("exec-1",
        new RunEvent.Steady(5000, 0.05, 0.01)).withPlanned(new RunEvent.Planned(2000, 30_000, "steady"));
  }

  static SteadyEvent steady(String run, String host, String iface, String metric, double value, long ts) {
    return new SteadyEvent(SteadyEvent.SCHEMA, run, host, iface, metric, value, "bit/s", 5000, 0.01, ts);
  }

  static ResultEvent result(String plan, String test, String metric, String unit, double... values) {
    SortedMap<Integer, Double> byRep = new TreeMap<>();
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      byRep.put(i + 1, values[i]);
      sum += values[i];
    }
    double mean = sum / values.length;
    double sq = 0;
    for (double v : values) {
      sq += (v - mean) * (v - mean);
    }
    Double stddev = values.length > 1 ? Math.sqrt(sq / (values.length - 1)) : null;
    Double ci95 = stddev == null ? null : 4.303 * stddev / Math.sqrt(values.length);
    return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, unit, byRep, values.length, mean, stddev, ci95,
        List.of("sut", "peer"), List.of(), System.currentTimeMillis(), plan + "-20261201T100000Z", null, null, false,
            null, values.length, null, null);
  }

  /** A result of one execution of a plan, labelled as the plan's {@code labels:} label it, stamped {@code ts}. */
  static ResultEvent result(String plan, String execution, Map<String, String> labels, long ts, String test,
      String metric, String unit, double... values) {
    ResultEvent r = result(plan, test, metric, unit, values);
    // as the processor says them: a rate's repetitions stopped when precise, a latency's (a printed figure) at its
    // duration, with no precision
    SortedMap<Integer, ResultEvent.Stop> stops = new TreeMap<>();
    for (int i = 1; i <= values.length; i++) {
      stops.put(i, unit.endsWith("/s") ? new ResultEvent.Stop("precise", 0.001 * (3 + i % 3))
          : new ResultEvent.Stop("duration", null));
    }
    return new ResultEvent(ResultEvent.SCHEMA, plan, test, metric, unit, r.values(), r.n(), r.mean(), r.stddev(),
        r.ci95(), r.hosts(), List.of(), ts, execution, labels, List.of(), true, values.length, values.length, null,
        stops);
  }
}
