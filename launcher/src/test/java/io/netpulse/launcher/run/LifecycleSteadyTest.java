package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which steady rule the lifecycle asks the processor for: the precision judge only when a repetition waits on it. */
@Tag("unit")
class LifecycleSteadyTest {

  private static RunEvent.Steady steadyOf(String header) throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        %s
        tests: [ { type: rx_pps, tool: iperf3 } ]
        """.formatted(header));
    return Lifecycle.steady(new ExecutionContext(plan, "p-x", null, null, null, null, null, null, null));
  }

  @Test
  void theDefaultStopAsksForPrecisionAndAFixedStopForTheCheapSpreadRule() throws Exception {
    RunEvent.Steady byDefault = steadyOf("");
    assertThat(byDefault.criterion()).isEqualTo(RunEvent.Steady.PRECISION);
    assertThat(byDefault.precision()).isEqualTo(0.01);
    assertThat(byDefault.minMeasureMs()).isEqualTo(60_000L);
    RunEvent.Steady fixed = steadyOf("stop: fixed");
    // no criterion is the spread rule, as from older launchers
    assertThat(fixed.criterion()).isNull();
    assertThat(fixed.precision()).isNull();
    assertThat(fixed.minMeasureMs()).isNull();
    RunEvent.Steady spread = steadyOf("steady: { criterion: spread }");
    assertThat(spread.criterion()).isNull();
  }
}
