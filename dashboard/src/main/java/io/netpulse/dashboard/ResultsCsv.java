package io.netpulse.dashboard;

import io.netpulse.common.Csv;
import io.netpulse.common.event.ResultEvent;
import java.util.List;
import java.util.Locale;

/**
 * Results as CSV (RFC 4180): one row per plan/test/metric with the execution it is from, every repetition's value,
 * mean, stddev and 95 % CI, in the result's own unit, named in its column, then why each repetition stopped and its
 * precision ({@link Csv#stopHeader}), then the plan's labels. Repetitions go in columns run_1..run_N (and stop_i,
 * precision_i), N the most any row has; labels in columns label_KEY, one per key any row has
 * ({@link Csv#labelKeys}: the same as {@code netpulse report --format csv}).
 */
final class ResultsCsv {

  private ResultsCsv() {}

  static String of(List<ResultEvent> results) {
    int runs = results.stream().mapToInt(r -> r.values() == null ? 0 : r.values().size()).max().orElse(0);
    List<String> labelKeys = Csv.labelKeys(results.stream().map(ResultEvent::labels).toList());
    StringBuilder out = new StringBuilder("plan,execution,test,metric,unit,hosts");
    for (int i = 1; i <= runs; i++) {
      out.append(",run_").append(i);
    }
    out.append(",n,mean,stddev,ci95");
    List<Integer> columns = java.util.stream.IntStream.rangeClosed(1, runs).boxed().toList();
    Csv.stopHeader(columns).forEach(h -> out.append(',').append(h));
    Csv.labelHeader(labelKeys).forEach(h -> out.append(',').append(h));
    out.append("\r\n");
    for (ResultEvent r : results) {
      out.append(field(r.plan())).append(',').append(field(r.execution())).append(',').append(field(r.test()))
          .append(',').append(field(r.metric()))
          .append(',').append(field(r.unit())).append(',')
          .append(field(r.hosts() == null ? "" : String.join(" ", r.hosts())));
      List<Double> values = r.values() == null ? List.of() : List.copyOf(r.values().values());
      for (int i = 0; i < runs; i++) {
        out.append(',').append(i < values.size() ? number(values.get(i)) : "");
      }
      out.append(',').append(r.n()).append(',').append(number(r.mean())).append(',').append(number(r.stddev()))
          .append(',').append(number(r.ci95()));
      // stop_i and precision_i of the repetition whose value is in run_i
      List<Integer> repetitions = r.values() == null ? List.of() : List.copyOf(r.values().keySet());
      List<ResultEvent.Stop> stops = new java.util.ArrayList<>();
      for (int i = 0; i < runs; i++) {
        stops.add(i < repetitions.size() ? r.stops().get(repetitions.get(i)) : null);
      }
      Csv.stopCells(stops, ResultsCsv::number).forEach(c -> out.append(',').append(c));
      Csv.labelCells(labelKeys, r.labels()).forEach(c -> out.append(',').append(c));
      out.append("\r\n");
    }
    return out.toString();
  }

  private static String number(Double v) {
    return v == null || v.isNaN() ? "" : String.format(Locale.ROOT, "%s", v);
  }

  /** A text field: {@link Csv#field}. */
  static String field(String s) {
    return Csv.field(s);
  }

}
