package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.PerSecondMetric;
import org.junit.jupiter.api.Test;

/** The dashboard's and report's per-second metric of a test type is one the processor makes the type's value from. */
class PerSecondMetricAgreementTest {

  @Test
  void everyTypeWhoseMainValueComesFromSamplesHasThatSamplesMetric() {
    for (String type : RunValueRules.tests()) {
      RunValueRules.Rule main = RunValueRules.forTest(type).get(0);
      if (main.fromSamples()) {
        assertThat(PerSecondMetric.of(type)).as(type).contains(main.sourceMetric());
      }
    }
    PerSecondMetric.all().forEach((type, metric) -> assertThat(RunValueRules.forTest(type))
        .as(type).anyMatch(r -> r.fromSamples() && r.sourceMetric().equals(metric)));
  }
}
