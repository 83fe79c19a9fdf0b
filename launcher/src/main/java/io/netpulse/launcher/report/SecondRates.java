package io.netpulse.launcher.report;

import io.netpulse.common.event.WideSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Collects, from the {@code metrics} topic, the per-second values each repetition's value was made of: its SUT's
 * series of one field of one measurement (a sampler's rows: a per-second sampler's 1-s rate is its row) over its
 * measuring window. Only those are kept, so a long topic costs no memory.
 */
final class SecondRates {

  /** A repetition and the measurement and field whose per-second series it wants. */
  private record Want(Repetition repetition, String measurement, String metric) {}

  private final List<Want> wants = new ArrayList<>();
  /** want → series (host/iface) → second → value; a row sent again replaces the earlier one. */
  private final Map<Want, Map<String, TreeMap<Long, Double>>> found = new HashMap<>();
  private final Map<String, String[]> hostIface = new HashMap<>();

  void want(Repetition repetition, String measurement, String metric) {
    if (repetition.measured()) {
      wants.add(new Want(repetition, measurement, metric));
    }
  }

  boolean wantsAny() {
    return !wants.isEmpty();
  }

  /** The earliest window start any wanted series needs (epoch ms). */
  long earliestStart() {
    return wants.stream().mapToLong(w -> w.repetition().measuringStart()).min().orElse(0) - 1000;
  }

  /** The latest window end any wanted series needs (epoch ms). */
  long latestEnd() {
    return wants.stream().mapToLong(w -> w.repetition().measuringEnd()).max().orElse(0) + 1000;
  }

  void add(WideSample row) {
    if (row == null || row.summaryRow()) {
      return; // a whole-run figure (sar's Average: row), no second's value
    }
    String host = row.tags().get("host");
    String iface = row.tags().get("interface");
    long second = row.time(); // its stamp, where the processor's 1-s windows of it started
    for (Want w : wants) {
      Repetition rep = w.repetition();
      Double value = row.fields().get(w.metric());
      if (value == null || !w.measurement().equals(row.name())) {
        continue;
      }
      // the processor's rule (RunValueCalculator.onSut): a sample without an interface is host-wide
      boolean where = (rep.sut() == null || rep.sut().equals(host))
          && (rep.iface() == null || iface == null || rep.iface().equals(iface));
      boolean when = second < rep.measuringEnd() && second + 1000 > rep.measuringStart();
      if (where && when) {
        String series = host + "/" + iface;
        hostIface.putIfAbsent(series, new String[] {host, iface});
        found.computeIfAbsent(w, k -> new LinkedHashMap<>()).computeIfAbsent(series, k -> new TreeMap<>())
            .put(second, value);
      }
    }
  }

  /**
   * The repetition's series of {@code metric}; with several candidates (a run that names no SUT or interface)
   * the one with the highest mean, as the processor picks it.
   */
  Optional<SecondSeries> series(Repetition repetition, String measurement, String metric) {
    Map<String, TreeMap<Long, Double>> candidates = found.get(new Want(repetition, measurement, metric));
    if (candidates == null || candidates.isEmpty()) {
      return Optional.empty();
    }
    String best = null;
    double bestMean = Double.NEGATIVE_INFINITY;
    for (var e : candidates.entrySet()) {
      double mean = e.getValue().values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
      if (best == null || mean > bestMean) {
        best = e.getKey();
        bestMean = mean;
      }
    }
    List<SecondSeries.Point> points = new ArrayList<>();
    candidates.get(best).forEach((start, mean) -> points.add(new SecondSeries.Point(start, mean)));
    String[] where = hostIface.get(best);
    return Optional.of(new SecondSeries(repetition.repetition(), repetition.run(), where[0], where[1],
        repetition.measuringStart(), points));
  }
}
