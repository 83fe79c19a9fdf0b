package io.netpulse.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.catalog.Metric;
import io.netpulse.common.catalog.TestType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The samplers and the test types' sources name parsers that exist; a sampler's two forms run one command. */
@Tag("unit")
class SamplerCatalogTest {

  @Test
  void everySamplerNamesALineParser() {
    for (Sampler s : Sampler.values()) {
      assertThat(Parsers.forFormat(s.parser()).format()).isEqualTo(s.source());
      assertThat(Sampler.named(s.source())).isSameAs(s);
    }
  }

  @Test
  void everyMetricOfEveryTestTypeIsReadByAParser() {
    for (TestType t : TestType.ALL) {
      for (Metric m : t.metrics()) {
        assertThat(Parsers.formats()).as(t + " " + m.metric() + " from " + m.source()).contains(m.source());
        if (m.interim() != null) {
          // a tool's interim lines are streamed one at a time
          assertThat(Parsers.lineParser(m.interim().source())).as(t + " " + m.interimMetric()).isPresent();
        }
      }
    }
  }

  @Test
  void theRemoteArgumentVectorIsTheCollectorsCommand() {
    assertThat(Sampler.SAR_DEV.argv()).containsExactly("sar", "-n", "DEV", "1");
    assertThat(Sampler.SAR_DEV.environment()).containsOnlyKeys("LC_ALL", "S_TIME_FORMAT", "TZ");
    assertThat(Sampler.SAR_DEV.shellCommand()).endsWith("exec sar -n DEV 1");
    for (Sampler s : new Sampler[] {Sampler.SS_SUMMARY, Sampler.PROC_NET_DEV, Sampler.PROC_STAT}) {
      assertThat(s.argv()).containsExactly("sh", "-c", s.shellCommand());
      assertThat(s.environment()).isEmpty();
      assertThat(s.localCommand()).isEqualTo(s.argv());
    }
  }
}
