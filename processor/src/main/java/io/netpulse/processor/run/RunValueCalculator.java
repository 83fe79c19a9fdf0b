package io.netpulse.processor.run;

import io.netpulse.common.catalog.Metric;

import io.netpulse.common.event.RunValue;
import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Makes a closed repetition's value of one rule from its window's samples or its tool figures. */
final class RunValueCalculator {

  private RunValueCalculator() {}

  /**
   * @param windowSamples the run's samples of {@code rule.sourceMetric()} inside the measuring window
   * @param interim       the run's streamed interim samples standing in for the rule's figure (see
   *                      {@link Metric#interim}), from a little before the window to a little after
   */
  static Optional<RunValue> value(String run, RepetitionState rep, Metric rule, List<Sample> windowSamples,
      List<Sample> interim) {
    return switch (rule.how()) {
      case SUM_OVER_INSTANCES -> figures(run, rep, rule, true).or(() -> interimValue(run, rep, rule, interim, true));
      case AS_PRINTED -> figures(run, rep, rule, false).or(() -> interimValue(run, rep, rule, interim, false));
      case MEAN_ON_SUT -> meanOnSut(run, rep, rule, wholeSeconds(rep, onSut(rep, windowSamples)));
      case MAX_OVER_WINDOW -> max(run, rep, rule, onSut(rep, windowSamples));
    };
  }

  private static Optional<RunValue> figures(String run, RepetitionState rep, Metric rule, boolean sum) {
    Map<String, Double> byInstance = rep.figures.get(rule.sourceMetric());
    if (byInstance == null || byInstance.isEmpty()) {
      return Optional.empty();
    }
    double total = byInstance.values().stream().mapToDouble(Double::doubleValue).sum();
    double value = sum ? total : total / byInstance.size();
    return Optional.of(runValue(run, rep, rule, value, null, null, byInstance.size(),
        sum ? null : seriesPrecision(rep, rule, byInstance)));
  }

  /**
   * A printed figure's precision where it is the mean of its tool's per-reply figures, one a second (ping's rtt_avg_ms
   * of its replies): that of their mean, as of a sampler's per-second series. One instance only: an average of
   * several instances' means is not the mean of one series.
   */
  private static Double seriesPrecision(RepetitionState rep, Metric rule, Map<String, Double> byInstance) {
    if (rule.series() == null || byInstance.size() != 1) {
      return null;
    }
    List<Double> replies = rep.series.getOrDefault(rule.sourceMetric(), Map.of())
        .get(byInstance.keySet().iterator().next());
    return replies == null ? null : precision(replies.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * A figure's stand-in when the tools were stopped before printing one: the sum over instances of each one's
   * mean interim rate over the measuring window, i.e. the mean of the per-second sums; for a printed figure
   * ({@code sum} false) that sum divided by the instances, as its figures would be averaged; a latency from a rate of
   * messages (qperf's 1-s loop) is one second over it, the harmonic mean of the per-second latencies, as qperf makes
   * its figure over a whole run. Its precision is that of the window's whole per-second sums (scale-free: the same for
   * the sum and the average, and to first order for the reciprocal).
   */
  private static Optional<RunValue> interimValue(String run, RepetitionState rep, Metric rule,
      List<Sample> interim, boolean sum) {
    if (interim.isEmpty()) {
      return Optional.empty();
    }
    Map<String, List<InterimRates.Piece>> pieces = InterimRates.pieces(interim);
    InterimRates.Sum total = InterimRates.windowSum(pieces, rep.start, rep.end);
    if (total.value().isEmpty() || sum && rep.clients != null && total.instances() < rep.clients) {
      return Optional.empty(); // a sum without some instance's share is no value of the test: none rather than low
    }
    Sample first = interim.get(0);
    boolean oneHost = interim.stream().allMatch(s -> java.util.Objects.equals(s.host(), first.host()));
    double rate = sum ? total.value().getAsDouble() : total.value().getAsDouble() / total.instances();
    return Optional.of(runValue(run, rep, rule, rule.figureOfInterimRate(rate), oneHost ? first.host() : null, null,
        total.instances(),
        precision(InterimRates.secondSums(pieces, rep.start, rep.end))));
  }

  /**
   * The samples of the SUT (and its interface, for rows that have one) the run names. A sample from
   * another host never stands in for the SUT's: with a SUT named and none of its samples, no value.
   */
  static List<Sample> onSut(RepetitionState rep, List<Sample> samples) {
    if (rep.sut == null && rep.iface == null) {
      return samples;
    }
    List<Sample> out = new ArrayList<>();
    for (Sample s : samples) {
      boolean host = rep.sut == null || rep.sut.equals(s.host());
      boolean iface = rep.iface == null || s.iface() == null || rep.iface.equals(s.iface());
      if (host && iface) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The per-second rows that lie wholly inside the measuring window. sar stamps a row W at the end of its
   * interval, at a phase φ of its own (the second it was started in): the row covers (W − 1 s + φ, W + φ] for some
   * φ in [0, 1 s). Counting a row that reaches past the window's end counts a part-second after the clients were
   * told to stop (2.9 % low on a 10-s window through a capped link, every repetition); so only rows inside the
   * window whatever φ is count: W − 1 s ≥ start and W + 1 s ≤ end. A window too short to hold one keeps its rows.
   */
  static List<Sample> wholeSeconds(RepetitionState rep, List<Sample> samples) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : samples) {
      if (s.ts() - 1000 >= rep.start && (rep.end == 0 || s.ts() + 1000 <= rep.end)) {
        out.add(s);
      }
    }
    return out.isEmpty() ? samples : out;
  }

  /**
   * Of the series left, the one with the highest mean. When the run does not name its SUT this is
   * the fallback: in every seed procedure the SUT's interface carries the measured direction while
   * the peer sees only acknowledgements.
   */
  private static Optional<RunValue> meanOnSut(String run, RepetitionState rep, Metric rule, List<Sample> samples) {
    Map<String, List<Sample>> bySeries = new HashMap<>();
    for (Sample s : samples) {
      bySeries.computeIfAbsent(s.seriesKey(), k -> new ArrayList<>()).add(s);
    }
    List<Sample> best = null;
    double bestMean = Double.NEGATIVE_INFINITY;
    for (List<Sample> series : bySeries.values()) {
      double sum = 0;
      for (Sample s : series) { // in arrival order, as before: the same sum to the last bit
        sum += s.value();
      }
      double mean = sum / series.size();
      if (mean > bestMean) {
        bestMean = mean;
        best = series;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    Sample sut = best.get(0);
    return Optional.of(runValue(run, rep, rule, bestMean, sut.host(), sut.iface(), best.size(), precision(best)));
  }

  /**
   * The 95 % half-width of a per-second series' mean as a fraction of it, by the precision stop's batch means
   * ({@link PrecisionJudge#interval}); null below its 10 samples, for a zero mean, or when even its 5 batches were
   * correlated (then no half-width is honest).
   */
  static Double precision(List<Sample> series) {
    return precision(series.stream().sorted(java.util.Comparator.comparingLong(Sample::ts))
        .mapToDouble(Sample::value).toArray());
  }

  /** The same of a series' values, oldest first (a value of interim lines: its window's per-second sums). */
  static Double precision(double[] xs) {
    if (xs.length < PrecisionJudge.MIN_SAMPLES) {
      return null;
    }
    PrecisionJudge.Interval interval = PrecisionJudge.interval(xs);
    if (interval.mean() == 0 || interval.batchCorrelation() > PrecisionJudge.MAX_BATCH_CORRELATION
        || !Double.isFinite(interval.halfWidth())) {
      return null;
    }
    return interval.halfWidth() / Math.abs(interval.mean());
  }

  private static Optional<RunValue> max(String run, RepetitionState rep, Metric rule, List<Sample> samples) {
    Sample top = null;
    for (Sample s : samples) {
      if (top == null || s.value() > top.value()) {
        top = s;
      }
    }
    return top == null ? Optional.empty()
        : Optional.of(runValue(run, rep, rule, top.value(), top.host(), top.iface(), samples.size(), null));
  }

  private static RunValue runValue(String run, RepetitionState rep, Metric rule, double value,
      String host, String iface, long inputs, Double precision) {
    return new RunValue(RunValue.SCHEMA, run, rep.plan, rep.test, rep.repetition, rule.metric(), value, rule.unit(),
        host, iface, inputs, rep.start, rep.end, rep.execution, rep.labels, rep.hostFacts, rep.repetitionsPlanned,
            null, rep.stopReasonOf(rule.metric()), precision);
  }

  static List<Sample> of(List<Sample> samples, String metric) {
    List<Sample> out = new ArrayList<>();
    for (Sample s : samples) {
      if (metric.equals(s.metric())) {
        out.add(s);
      }
    }
    return out;
  }
}
