package io.netpulse.launcher.report;

import io.netpulse.common.event.ResultEvent;
import java.util.List;

/**
 * What a report shows for one plan/test/metric: the processor's result, the repetitions it came from and,
 * for values made of per-second samples, each repetition's 1-s series.
 *
 * @param type            the plan's test type from the lifecycle (the test's name when older producers gave none)
 * @param perSecondMetric the rates metric the value is made of, null for tool figures (latency, TCP_CRR, …)
 * @param perSecondUnit   its unit, null with it
 */
public record MetricSection(ResultEvent result, String type, String perSecondMetric, String perSecondUnit,
    List<Repetition> repetitions, List<SecondSeries> series) {

  public MetricSection {
    repetitions = List.copyOf(repetitions);
    series = List.copyOf(series);
  }

  public String test() {
    return result.test();
  }

  public String metric() {
    return result.metric();
  }

  public String unit() {
    return result.unit();
  }
}
