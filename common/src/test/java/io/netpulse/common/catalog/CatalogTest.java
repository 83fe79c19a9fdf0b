package io.netpulse.common.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Units;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The catalog's own invariants: every entry is complete and consistent with itself. */
@Tag("unit")
class CatalogTest {

  private static final Set<String> UNITS = unitConstants();

  @Test
  void everyTypeHasMetricsWithAUnitADirectionAndASource() {
    assertThat(TestType.ALL).isNotEmpty();
    for (TestType t : TestType.ALL) {
      assertThat(t.metrics()).as(t + " metrics").isNotEmpty();
      for (Metric m : t.metrics()) {
        assertThat(m.unit()).as(t + " " + m.metric() + " unit").isIn(UNITS);
        assertThat(m.direction()).as(t + " " + m.metric()).isNotEqualTo(Direction.UNKNOWN);
        assertThat(m.how()).as(t + " " + m.metric()).isNotNull();
        assertThat(m.source()).as(t + " " + m.metric() + " source").isNotBlank();
        assertThat(m.sourceMetric()).as(t + " " + m.metric()).isNotBlank();
        // sar's figures are sar's; a tool's interim lines stand only for a tool's figure
        assertThat(m.how() == How.MEAN_ON_SUT).as(t + " " + m.metric()).isEqualTo(Sources.SAR_DEV.equals(m.source()));
        if (m.interim() != null) {
          assertThat(m.fromSamples()).as(t + " " + m.metric() + " interim").isFalse();
        }
      }
      assertThat(t.metrics().stream().map(Metric::metric).distinct()).as(t + " metric names").hasSameSizeAs(
          t.metrics());
    }
  }

  @Test
  void namesAreUniqueAndTheirOwnKeysAreNotTheCommonOnes() {
    assertThat(new HashSet<>(TestType.yamlNames())).hasSameSizeAs(TestType.ALL);
    for (TestType t : TestType.ALL) {
      assertThat(t.yamlName()).matches("[a-z][a-z0-9_]*");
      assertThat(TestType.named(t.yamlName())).contains(t);
      assertThat(TestType.named(t.yamlName().replace('_', '-').toUpperCase())).contains(t);
      assertThat(t.ownKeys()).as(t + " own keys").doesNotContainAnyElementsOf(TestType.COMMON_KEYS)
          .doesNotHaveDuplicates();
      assertThat(t.keys()).startsWith(TestType.COMMON_KEYS.toArray(String[]::new));
      assertThat(t.tools()).as(t + " tools").isNotEmpty();
      assertThat(t.duration()).as(t + " duration").isPositive();
      assertThat(t.procedure()).as(t + " procedure").matches("[a-z][a-z0-9_]*");
    }
  }

  @Test
  void defaultsAreForKeysTheTypeAccepts() {
    for (TestType t : TestType.ALL) {
      for (String key : t.numbers().keySet()) {
        String[] parts = key.split("\\.");
        assertThat(t.accepts(parts[0])).as(t + " default of " + key).isTrue();
        if (parts.length > 1) {
          assertThat(t.tools()).as(t + " default of " + key).contains(parts[1]);
        }
      }
      if (t.portPerStream()) {
        assertThat(t.accepts("streams")).as(t.yamlName()).isTrue();
      }
      if (t.tools().size() > 1) {
        assertThat(t.accepts("tool")).as(t + " offers a choice of tools").isTrue();
      }
    }
  }

  @Test
  void everyPerSecondMetricIsOneOfTheTypesPerSecondMetrics() {
    for (TestType t : TestType.ALL) {
      if (t.perSecondMetric() == null) {
        continue;
      }
      assertThat(t.metrics()).as(t + " per-second " + t.perSecondMetric())
          .anyMatch(m -> m.fromSamples() && m.sourceMetric().equals(t.perSecondMetric()));
      assertThat(Catalog.perSecondMetric(t.yamlName(), "eth0")).contains(t.perSecondMetric());
    }
    // a type whose main value is from samplers shows it live
    TestType.ALL.stream().filter(t -> t.metrics().get(0).fromSamples())
        .forEach(t -> assertThat(t.perSecondMetric()).as(t.yamlName()).isEqualTo(t.metrics().get(0).sourceMetric()));
    // udp_stream has sar's rx_pps only where its SUT ran sar, which the run says by naming the SUT's interface
    assertThat(Catalog.perSecondMetric("udp_stream", null)).isEmpty();
    assertThat(Catalog.perSecondMetric("udp-stream", "eth0")).contains("rx_pps");
    assertThat(Catalog.perSecondMetric("latency", "eth0")).isEmpty();
    assertThat(Catalog.perSecondMetric("no_such_type", "eth0")).isEmpty();
  }

  @Test
  void runsWithoutSarOnTheSutDoWithoutTheMetricsMadeOfIt() {
    assertThat(Catalog.metricsOfRun("udp_stream", null)).extracting(Metric::metric)
        .containsExactly("send_pps", "recv_pps", "send_bps", "recv_bps");
    assertThat(Catalog.metricsOfRun("udp_stream", "eth0")).extracting(Metric::metric).first().isEqualTo("rx_pps");
    assertThat(Catalog.metricsOf("tcp_crr")).extracting(Metric::metric).containsExactly("connections_per_s");
    assertThat(Catalog.metricsOf("nothing")).isEmpty();
    assertThat(Catalog.tests()).contains("rx_bandwidth", "tcp_lat", "ping").doesNotHaveDuplicates();
  }

  @Test
  void everyInterimMetricLeadsBackToItsFigure() {
    for (TestType t : TestType.ALL) {
      for (Metric m : t.metrics()) {
        if (m.interim() != null) {
          assertThat(Catalog.figureOfInterim(m.interimMetric())).as(m.interimMetric()).isEqualTo(m.sourceMetric());
          assertThat(Catalog.interimOf(m.source(), m.sourceMetric())).isEqualTo(m.interimMetric());
          assertThat(Catalog.interimSourceOf(m.source(), m.sourceMetric())).isEqualTo(m.interim().source());
        }
      }
    }
    assertThat(Catalog.figureOfInterim("rx_bps")).isNull();
  }

  @Test
  void aMetricHasOneDirectionWhereverItAppears() {
    for (TestType t : TestType.ALL) {
      for (Metric m : t.metrics()) {
        assertThat(Catalog.metrics()).containsEntry(m.metric(), m.direction());
        assertThat(Catalog.direction(m.metric() + "_as_seeds", null)).isEqualTo(m.direction());
      }
    }
    assertThat(Catalog.direction("p999_us", "us")).isEqualTo(Direction.LOWER_IS_BETTER);
    assertThat(Catalog.direction("odd", "widgets")).isEqualTo(Direction.UNKNOWN);
  }

  @Test
  void theSarOnSutTypesAreTheOnesWhoseMainValueIsSars() {
    List<String> sar = TestType.ALL.stream().filter(TestType::readsSarOnSut).map(TestType::yamlName).toList();
    assertThat(sar).contains("rx_bandwidth", "iperf_bandwidth", "tcp_rr").doesNotContain("udp_stream",
        "new_connections", "latency");
  }

  private static Set<String> unitConstants() {
    Set<String> out = new HashSet<>(Set.of(TestType.CONNECTIONS_PER_S));
    for (Field f : Units.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        try {
          out.add((String) f.get(null));
        } catch (IllegalAccessException e) {
          throw new AssertionError(e);
        }
      }
    }
    return out;
  }
}
