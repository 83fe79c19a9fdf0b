package io.netpulse.common.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Welch's test against SciPy 1.17 ({@code scipy.stats.ttest_ind(a, b, equal_var=False)}, whose figures are R's
 * {@code t.test(b, a)}): statistic, Welch–Satterthwaite df and two-sided p. t here is B − A, so SciPy's
 * {@code ttest_ind(a, b)} statistic with its sign turned.
 */
@Tag("unit")
class WelchTest {

  @Test
  void matchesScipyOnATextbookCase() {
    // ttest_ind([1,2,3,4,5], [2,4,6,8,10], equal_var=False): t = -1.8973665961010275, p = 0.10753119493062728,
    // df = 5.882352941176471 (R: t = -1.8974, df = 5.8824, p-value = 0.1075)
    Welch w = Welch.test(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 6, 8, 10});
    assertThat(w.t()).isCloseTo(1.8973665961010275, within(1e-12));
    assertThat(w.df()).isCloseTo(5.882352941176471, within(1e-12));
    assertThat(w.p()).isCloseTo(0.10753119493062728, within(1e-9));
  }

  @Test
  void matchesScipyOnTwoCapsOfThreeRepetitions() {
    // ttest_ind([19.1,20.3,18.7], [39.2,40.1,38.8], equal_var=False): t = -32.49182166443289,
    // p = 8.353901307370017e-06, df = 3.815431562023201
    Welch w = Welch.test(new double[] {19.1, 20.3, 18.7}, new double[] {39.2, 40.1, 38.8});
    assertThat(w.t()).isCloseTo(32.49182166443289, within(1e-9));
    assertThat(w.df()).isCloseTo(3.815431562023201, within(1e-9));
    assertThat(w.p()).isCloseTo(8.353901307370017e-06, within(1e-12));
  }

  @Test
  void matchesScipyOnUnequalSizesAndOverlappingValues() {
    // ttest_ind([27.1,33.5,34.2,30.0], [29.9,31.2], equal_var=False): t = 0.3671574229833806,
    // p = 0.7333459746332246, df = 3.7356181252912166
    Welch w = Welch.test(new double[] {27.1, 33.5, 34.2, 30.0}, new double[] {29.9, 31.2});
    assertThat(w.t()).isCloseTo(-0.3671574229833806, within(1e-12));
    assertThat(w.df()).isCloseTo(3.7356181252912166, within(1e-9));
    assertThat(w.p()).isCloseTo(0.7333459746332246, within(1e-9));
  }

  @Test
  void fewerThanTwoValuesOnASideGiveNoTest() {
    assertThat(Welch.test(new double[] {1}, new double[] {2, 3})).isNull();
    assertThat(Welch.test(new double[] {1, 2}, new double[] {})).isNull();
  }

  @Test
  void constantSidesAreCertainWhenTheyDifferAndNoDifferenceWhenEqual() {
    assertThat(Welch.test(new double[] {5, 5}, new double[] {5, 5, 5}).p()).isEqualTo(1.0);
    Welch w = Welch.test(new double[] {5, 5}, new double[] {6, 6});
    assertThat(w.p()).isEqualTo(0.0);
    assertThat(w.t()).isPositive();
  }

  @Test
  void sampleStatsMatchScipy() {
    // mean, np.std(ddof=1), stats.t.ppf(0.975, n-1) * sd / sqrt(n): 19.3667, 0.83266639978645, 2.068458005016906
    SampleStats s = SampleStats.of(new double[] {19.1, 20.3, 18.7});
    assertThat(s.n()).isEqualTo(3);
    assertThat(s.mean()).isCloseTo(19.36666666666667, within(1e-12));
    assertThat(s.stddev()).isCloseTo(0.8326663997864535, within(1e-12));
    assertThat(s.ci95()).isCloseTo(2.068458005016906, within(1e-9));
    assertThat(SampleStats.of(new double[] {4}).ci95()).isNull();
  }
}
