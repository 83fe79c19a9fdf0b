package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.PerSecondMetric;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The dashboard's and report's per-second metric of a test type is one the processor makes the type's value from. */
@Tag("unit")
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

  /** A type whose first value needs sar on the SUT has its per-second metric only for runs that name the interface. */
  @Test
  void aMetricMadeOnlyWhenTheSutRunsSarIsChartedOnlyThen() {
    for (String type : RunValueRules.tests()) {
      RunValueRules.Rule main = RunValueRules.forTest(type).get(0);
      assertThat(PerSecondMetric.of(type, "eth0")).as(type).isEqualTo(PerSecondMetric.of(type));
      assertThat(PerSecondMetric.of(type, null).isPresent()).as(type)
          .isEqualTo(PerSecondMetric.of(type).isPresent() && !main.whenSutSar());
    }
    assertThat(PerSecondMetric.of("udp_stream", "eth0")).contains("rx_pps");
    assertThat(PerSecondMetric.of("udp_stream", null)).isEmpty();
  }
}
