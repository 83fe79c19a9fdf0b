package io.netpulse.common.catalog;

import io.netpulse.common.Units;

/**
 * One result metric of a test type: what a repetition's value is called, in which unit, which way is better, and how
 * it is made from which samples.
 *
 * @param metric       name the value is reported under, e.g. {@code rx_bps}
 * @param unit         its unit ({@link Units})
 * @param direction    which way it improves, for comparisons' verdicts
 * @param how          how one repetition's samples or tool figures make its value
 * @param source       the output its samples are parsed from ({@link Sources})
 * @param sourceMetric the sample metric it is made of
 * @param whenSutSar   made only for runs that name the SUT's interface, i.e. whose SUT ran sar for this value
 *                     (udp_stream in seed 002's shape); a type's other runs do without it
 * @param interim      the per-second lines the tool prints while it runs that stand for its final figure when it is
 *                     stopped early on steady (null: none)
 * @param series       the sample metric of the per-reply figures, one a second, whose mean the printed figure is
 *                     (ping's rtt_ms for rtt_avg_ms), so that the value can say its precision as a sampler's mean
 *                     does (null: none)
 */
public record Metric(String metric, String unit, Direction direction, How how, String source, String sourceMetric,
    boolean whenSutSar, Interim interim, String series) {

  /**
   * A tool's per-second figures standing for its final one.
   *
   * @param metric     the sample metric of the streamed lines (netperf's interim_trans_per_s for trans_per_s)
   * @param source     the output (parser format) they come from: the figure's own, or a form of the tool that prints
   *                   one figure a second (qperf's 1-s loop, {@code qperf-tcp_lat}, for qperf's tcp_lat_us)
   * @param reciprocal the lines are rates (messages/s) of a figure that is a time (us): the window's figure is then
   *                   one second over their mean (in the figure's unit), as the tool makes its own over a whole run
   */
  public record Interim(String metric, String source, boolean reciprocal) {}

  /** The interim lines' sample metric, or null. */
  public String interimMetric() {
    return interim == null ? null : interim.metric();
  }

  /**
   * The figure a mean interim rate stands for: the rate itself, or for a {@link Interim#reciprocal} one (a latency of
   * messages) one second over it, in microseconds.
   */
  public double figureOfInterimRate(double meanRate) {
    if (interim == null || !interim.reciprocal()) {
      return meanRate;
    }
    if (!Units.MICROSECONDS.equals(unit)) {
      throw new IllegalStateException(metric + ": a reciprocal interim needs a figure in us, not " + unit);
    }
    return 1e6 / meanRate;
  }

  /** A per-second or final figure: made from samplers over time, or from the tools' printed figures. */
  public boolean fromSamples() {
    return how.fromSamples();
  }

  /** The same metric made only when the SUT ran sar (see {@link #whenSutSar}). */
  public Metric onlyWhenSutSar() {
    return new Metric(metric, unit, direction, how, source, sourceMetric, true, interim, series);
  }

  /** The same metric, its printed figure the mean of the tool's per-reply {@code seriesMetric} samples. */
  Metric withSeries(String seriesMetric) {
    return new Metric(metric, unit, direction, how, source, sourceMetric, whenSutSar, interim, seriesMetric);
  }

  /** sar's per-second figure on the SUT (rx_bps, tx_pps, …), averaged over the measuring window. */
  static Metric sarOnSut(String metric, String unit) {
    return new Metric(metric, unit, Direction.HIGHER_IS_BETTER, How.MEAN_ON_SUT, Sources.SAR_DEV, metric, false, null,
        null);
  }

  /** A figure each tool instance prints, added up over the instances, its interim lines (if any) in the same output. */
  static Metric summed(String metric, String unit, String source, String sourceMetric, String interim) {
    return new Metric(metric, unit, Direction.HIGHER_IS_BETTER, How.SUM_OVER_INSTANCES, source, sourceMetric, false,
        interim == null ? null : new Interim(interim, source, false), null);
  }

  /**
   * The same metric, with a form of its tool ({@code loopSource}) that prints it once a second as a rate of messages
   * ({@code rateMetric}), so that it can stop when precise.
   */
  Metric withMessageRateLoop(String loopSource, String rateMetric) {
    return new Metric(metric, unit, direction, how, source, sourceMetric, whenSutSar,
        new Interim(rateMetric, loopSource, true), series);
  }

  /** A latency the tool prints at the end: lower is better. */
  static Metric printedLatency(String metric, String unit, String source) {
    return new Metric(metric, unit, Direction.LOWER_IS_BETTER, How.AS_PRINTED, source, metric, false, null, null);
  }
}
