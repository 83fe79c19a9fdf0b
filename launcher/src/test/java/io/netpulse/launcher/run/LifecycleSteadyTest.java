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
    return steadyOf(header, "{ type: rx_pps, tool: iperf3 }");
  }

  private static RunEvent.Steady steadyOf(String header, String test) throws Exception {
    Plan plan = PlanLoader.parse("p.yaml", Path.of("/p"), """
        name: p
        hosts: { sut: { address: 198.18.0.2 }, peer: { address: 198.18.0.1 } }
        %s
        tests: [ %s ]
        """.formatted(header, test));
    return Lifecycle.steady(new ExecutionContext(plan, "p-x", null, null, null, null, null, null, null),
        plan.tests().get(0));
  }

  @Test
  void aTestsOwnSteadyKeysTakeThePlansPlaceAndTheRestIsThePlans() throws Exception {
    // latency to ±5 % beside rates to ±1 %: what the processor is asked for that test's runs
    RunEvent.Steady own = steadyOf("steady: { precision: 1%, min_measure: 10s }",
        "{ type: latency, steady: { precision: 5% } }");
    assertThat(own.criterion()).isEqualTo(RunEvent.Steady.PRECISION);
    assertThat(own.precision()).isEqualTo(0.05);
    assertThat(own.minMeasureMs()).isEqualTo(10_000L);
    RunEvent.Steady spread = steadyOf("", "{ type: rx_pps, steady: { criterion: spread, spread: 3% } }");
    assertThat(spread.criterion()).isNull();
    assertThat(spread.maxSpread()).isEqualTo(0.03);
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
