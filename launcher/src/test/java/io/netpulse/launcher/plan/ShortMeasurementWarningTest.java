package io.netpulse.launcher.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A test whose value is a mean of sar's per-second rows, planned for less than 3 s: it runs, but the plan says that
 * its value will count part-seconds (a 2-s window holds no row wholly whatever sar's phase).
 */
@Tag("unit")
class ShortMeasurementWarningTest {

  private final List<String> warnings = new ArrayList<>();

  private void load(String test) throws PlanException {
    PlanLoader.parse("plan.yaml", Path.of("/plans"), """
        name: t
        hosts:
          sut: { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
        tests:
          - %s
        """.formatted(test), w -> warnings.add(w.describe()));
  }

  @Test
  void aSarMeanUnderThreeSecondsIsWarnedWithFileLineAndTest() throws Exception {
    load("{ type: rx_pps, tool: iperf3, duration: 2s }");
    assertThat(warnings).containsExactly("plan.yaml:6:5: warning: test 1 (rx_pps): duration 2s is under the 3 s "
        + "that hold a whole per-second sar row whatever its phase; its value will count part-seconds at the "
        + "window's edges (expected duration: 3s or more)");
  }

  @Test
  void threeSecondsOrAToolsOwnFigureIsNotWarned() throws Exception {
    load("{ type: rx_bandwidth, duration: 3s }");
    load("{ type: latency, duration: 2s }"); // qperf's and ping's own figures: no sar rows
    load("{ type: new_connections, duration: 2s }"); // netperf's figure
    assertThat(warnings).isEmpty();
  }
}
