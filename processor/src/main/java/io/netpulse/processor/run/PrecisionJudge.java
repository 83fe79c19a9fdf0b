package io.netpulse.processor.run;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The precision criterion on one series (issue 17): every per-second sample since the repetition's MEASURING began,
 * and whether their mean is known to a stated precision. It is known once (a) the series has no trend: the means of
 * its first and second halves differ by at most {@code precision × |mean|}, and (b) the 95 % confidence half-width of
 * the mean is at most {@code precision × |mean|}; and only once {@code minMeasureMs} has been measured. Per-second
 * network figures are autocorrelated (a queue, a congestion window, a burst credit carry over from one second to the
 * next), which makes the textbook s/√n too narrow: the half-width comes from non-overlapping batch means
 * ({@link #interval}). The half-width is itself an estimate, and a stop at the first time it is small enough comes
 * early when it happens to be low: min_measure, not this class, keeps a slow swing from passing for a mean. Mutable on
 * purpose: it lives only inside a state store, with plain fields for the JSON serde.
 */
public final class PrecisionJudge {

  /** Per-second samples: one stamped ts covers (ts − 1 s, ts] (a sar row, a summed second of interim lines). */
  public static final long SAMPLE_MS = 1_000;
  /** Batches, as Schmeiser's 10 to 30 (1982): fewer cost a larger t quantile, more a shorter, more correlated batch. */
  static final int BATCHES = 10;
  /** Fewer than 5 batches leave a t quantile with 3 degrees of freedom (3.18) and a variance no one should trust. */
  static final int MIN_BATCHES = 5;
  /** Two samples a batch at least: {@link #MIN_BATCHES} of them. */
  static final int MIN_SAMPLES = 2 * MIN_BATCHES;
  /**
   * Largest lag-1 autocorrelation of the batch means taken as independent. Of 10 independent means the estimate
   * centres on −0.1 with a standard error near 1/√10 ≈ 0.3: above 0.3 happens by chance about one time in ten (and
   * costs only a wider interval), while a lower bar would mostly flag noise. Checked by simulation
   * (PrecisionJudgeTest): the intervals of AR(1) seconds with φ 0.7 cover the true mean 94 % of the time.
   */
  static final double MAX_BATCH_CORRELATION = 0.3;
  /** sar prints two decimals: a mean under its last digit is an idle series, whose precision means nothing. */
  static final double IDLE_MEAN = 0.01;
  /**
   * By how many times the sum of the halves' half-widths their means must differ to count as a level shift. For iid
   * seconds the sum is about 3.2 standard errors of the difference; 1.5 times it, about 4.8, keeps a test made every
   * second from firing on noise (PrecisionJudgeTest: 2 in 50 noisy series of 120 s, at 17 % noise), while a burst credit running
   * out moves the level by tens of them.
   */
  static final double SHIFT_HALF_WIDTHS = 1.5;
  /** Two hours of seconds (well under the serde's record limit): past that the judge has said what it could. */
  static final int MAX_SAMPLES = 7_200;
  /** Student's t at 0.975 by degrees of freedom (index), for 1 to {@link #BATCHES} − 1. */
  private static final double[] T975 = new double[BATCHES];

  static {
    for (int df = 1; df < BATCHES; df++) {
      T975[df] = new TDistribution(null, df).inverseCumulativeProbability(0.975);
    }
  }

  /** The values of the samples judged, oldest first. */
  public List<Double> values = new ArrayList<>();
  /** Epoch ms of the first sample (the end of its second) and of the newest; 0 before the first. */
  public long firstTs;
  public long newestTs;
  /** Whether the last judgement was "precise": only the change to precise is reported. */
  public boolean precise;

  /**
   * A judgement.
   *
   * @param precise          all of the criterion's conditions hold
   * @param mean             mean of the n samples
   * @param precision        the 95 % confidence half-width of the mean, as a fraction of |mean| (infinite when it
   *                         cannot be told: fewer than {@link #MIN_SAMPLES} samples, or an idle series)
   * @param n                samples judged
   * @param spanMs           time they cover, from the first one's second's start to the newest's end
   * @param halvesDiff       |mean of the first half − mean of the second half| / |mean|
   * @param batches          batches the half-width was made with (0: too few samples)
   * @param batchCorrelation lag-1 autocorrelation of those batch means
   * @param spread           (max − min) / |mean|
   * @param startTs          epoch ms the first sample's second began
   * @param ts               epoch ms of the newest sample
   */
  public record Verdict(boolean precise, double mean, double precision, int n, long spanMs, double halvesDiff,
      int batches, double batchCorrelation, double spread, long startTs, long ts) {}

  /**
   * The 95 % confidence interval of a mean by batch means.
   *
   * @param halfWidth        in the series' unit (infinite with fewer than {@link #MIN_SAMPLES} samples)
   * @param batches          how many batches made it
   * @param batchCorrelation their means' lag-1 autocorrelation
   */
  public record Interval(double mean, double halfWidth, int batches, double batchCorrelation) {}

  /**
   * Adds a sample and judges all of them.
   *
   * @return the verdict when the mean has just become precise, else null
   */
  public Verdict add(long ts, double value, double precision, long minMeasureMs) {
    if (!accept(ts, value)) {
      return null;
    }
    double[] xs = samples();
    Verdict verdict = judge(xs, firstTs - SAMPLE_MS, newestTs, precision, minMeasureMs);
    boolean was = precise;
    precise = verdict.precise();
    if (!precise && shifted(xs, verdict, precision, minMeasureMs)) {
      dropBeforeChange(xs);
    }
    return precise && !was ? verdict : null;
  }

  /**
   * Whether the series' level moved within what was measured, by more than its noise explains: the halves' means
   * differ by more than the precision and by more than {@link #SHIFT_HALF_WIDTHS} times the sum of the halves' own
   * half-widths (each half's batch means: a step inside one half widens that half's interval, not the other's). A
   * burst credit running out is such a move: its seconds are not the sustained rate the test measures. Judged only
   * once min_measure is measured and each half holds enough samples for its own batches.
   */
  static boolean shifted(double[] xs, Verdict v, double precision, long minMeasureMs) {
    int n = xs.length;
    if (n < 2 * MIN_SAMPLES || v.spanMs() < minMeasureMs || !(v.halvesDiff() > precision)) {
      return false;
    }
    int half = n / 2;
    Interval older = interval(java.util.Arrays.copyOfRange(xs, 0, half));
    Interval newer = interval(java.util.Arrays.copyOfRange(xs, n - half, n));
    return Math.abs(older.mean() - newer.mean()) > SHIFT_HALF_WIDTHS * (older.halfWidth() + newer.halfWidth());
  }

  /**
   * Forgets the samples before a level shift's change point ({@link #changePoint}): what is judged from then on starts
   * there, and must again reach min_measure. Not the older half: a burst credit that ran out two thirds into what was
   * measured (a 30-s credit seen at 45 s) would leave a third of its seconds in the kept half, and those seconds keep
   * the halves apart, by less than their own widened intervals, for as long as the test runs: never precise, and the
   * credit in the mean. The first kept sample's time is taken as one second apart from the newest back (the samples
   * are per-second): a series with a gap makes it later than the true one, which only narrows the window.
   */
  void dropBeforeChange(double[] xs) {
    values.subList(0, changePoint(xs)).clear();
    firstTs = newestTs - (values.size() - 1) * SAMPLE_MS;
  }

  /**
   * Where one level of {@code xs} ends and another begins: the k in [1, n − 1] that maximises
   * |mean(x[0, k)) − mean(x[k, n))| · √(k (n − k)), the likelihood-ratio statistic of a single shift in mean (equal
   * variances either side). For a step it is the step; for a drift, somewhere along it.
   */
  static int changePoint(double[] xs) {
    int n = xs.length;
    double total = 0;
    for (double x : xs) {
      total += x;
    }
    int best = n / 2;
    double bestScore = -1;
    double before = 0;
    for (int k = 1; k < n; k++) {
      before += xs[k - 1];
      double score = Math.abs(before / k - (total - before) / (n - k)) * Math.sqrt((double) k * (n - k));
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    }
    return best;
  }

  /**
   * Appends a sample. One not after the newest is a repeat or out of order and is dropped (its series comes in order:
   * sar rows of one host, seconds summed oldest first), as is any past {@link #MAX_SAMPLES}.
   *
   * @return whether it was added
   */
  public boolean accept(long ts, double value) {
    if (ts <= newestTs || values.size() >= MAX_SAMPLES || !Double.isFinite(value)) {
      return false;
    }
    if (values.isEmpty()) {
      firstTs = ts;
    }
    values.add(value);
    newestTs = ts;
    return true;
  }

  /** Judges the samples added so far. */
  public Verdict judge(double precision, long minMeasureMs) {
    return judge(samples(), firstTs - SAMPLE_MS, newestTs, precision, minMeasureMs);
  }

  /** The samples judged, as an array: copied once per judgement. */
  private double[] samples() {
    double[] xs = new double[values.size()];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = values.get(i);
    }
    return xs;
  }

  /** Judges {@code xs}, per-second samples from {@code startTs} to {@code ts}. */
  static Verdict judge(double[] xs, long startTs, long ts, double precision, long minMeasureMs) {
    int n = xs.length;
    if (n == 0) {
      return new Verdict(false, Double.NaN, Double.POSITIVE_INFINITY, 0, 0, Double.NaN, 0, Double.NaN, Double.NaN,
          startTs, ts);
    }
    Interval interval = interval(xs);
    double mean = interval.mean();
    double scale = Math.abs(mean);
    boolean idle = !(scale > IDLE_MEAN);
    int half = n / 2; // an odd n's middle sample belongs to neither half
    double halvesDiff = half == 0 ? Double.POSITIVE_INFINITY
        : Math.abs(mean(xs, 0, half) - mean(xs, n - half, n)) / scale;
    double reached = idle ? Double.POSITIVE_INFINITY : interval.halfWidth() / scale;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double x : xs) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    long span = ts - startTs;
    boolean precise = !idle && n >= MIN_SAMPLES && span >= minMeasureMs
        && halvesDiff <= precision && reached <= precision
        && interval.batchCorrelation() <= MAX_BATCH_CORRELATION;
    return new Verdict(precise, mean, reached, n, span, halvesDiff, interval.batches(), interval.batchCorrelation(),
        (max - min) / scale, startTs, ts);
  }

  /**
   * The 95 % confidence interval of the mean of {@code xs} by non-overlapping batch means: k = {@link #BATCHES}
   * batches of b = ⌊n / k⌋ samples (with fewer than 2k samples, k = ⌊n / 2⌋ batches of two, at least
   * {@link #MIN_BATCHES}). The batches are the last k·b samples: the n − k·b left over (fewer than k) are the oldest,
   * the nearest to the warm-up, and unequal batches would not have equal variances. When the batch means' lag-1
   * autocorrelation is above {@link #MAX_BATCH_CORRELATION} the batches are too short to be independent: k is halved
   * (b doubled) down to {@link #MIN_BATCHES}, and if they are still correlated the interval says so. b·S² (S² the
   * batch means' variance) estimates the variance constant of the series, σ² with var(mean of n) ≈ σ²/n; the
   * half-width is t(0.975, k − 1) · √(b·S² / n), for the mean of all n samples, which is the value reported.
   */
  static Interval interval(double[] xs) {
    int n = xs.length;
    double mean = mean(xs, 0, n);
    if (n < MIN_SAMPLES) {
      return new Interval(mean, Double.POSITIVE_INFINITY, 0, Double.NaN);
    }
    int k = n >= 2 * BATCHES ? BATCHES : n / 2;
    while (true) {
      int b = n / k;
      int from = n - k * b;
      double[] means = new double[k];
      for (int i = 0; i < k; i++) {
        means[i] = mean(xs, from + i * b, from + (i + 1) * b);
      }
      double grand = mean(means, 0, k);
      double squares = 0;
      double lagged = 0;
      for (int i = 0; i < k; i++) {
        double d = means[i] - grand;
        squares += d * d;
        if (i + 1 < k) {
          lagged += d * (means[i + 1] - grand);
        }
      }
      double correlation = squares > 0 ? lagged / squares : 0; // equal means: nothing to correlate
      if (correlation <= MAX_BATCH_CORRELATION || k == MIN_BATCHES) {
        double variance = squares / (k - 1);
        return new Interval(mean, T975[k - 1] * Math.sqrt(b * variance / n), k, correlation);
      }
      k = Math.max(MIN_BATCHES, k / 2);
    }
  }

  private static double mean(double[] xs, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += xs[i];
    }
    return sum / (to - from);
  }
}
