package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.Procedures;
import io.netpulse.launcher.procedure.ResultRule;
import io.netpulse.launcher.procedure.SutFacts;
import io.netpulse.launcher.procedure.TestProcedure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's latency test with {@code qperf_loop: true} under {@code stop: steady} with the precision criterion:
 * qperf's two tests as 1-s loops in stages of their own, each judged on its own figure, then ping; without the key,
 * or under a fixed stop or the spread rule, the seed's commands in two stages, judged on nothing.
 */
@Tag("unit")
class StagedPrecisionTest {

  private static TestProcedure latency(String stop) throws Exception {
    return latency(stop, ", qperf_loop: true");
  }

  private static TestProcedure latency(String stop, String keys) throws Exception {
    Plan plan = PlanLoader.parse("plan.yaml", Path.of("/plans"), """
        name: t
        hosts:
          sut:  { address: 198.18.0.2 }
          peer: { address: 198.18.0.1 }
        """ + stop + """
        tests:
          - { type: latency, duration: 60s, ping_count: 120%s }
        """.formatted(keys));
    return Procedures.build(plan, plan.tests().get(0), new SutFacts("eth0", 1));
  }

  @Test
  void withAPrecisionStopQperfsTestsAreOneSecondLoopsEachJudgedOnItsOwnFigure() throws Exception {
    TestProcedure p = latency("stop: steady\nsteady: { precision: 1%, min_measure: 10s }\n");
    assertThat(p.clients()).extracting(HostCommand::tool, HostCommand::stage, HostCommand::runsSeconds)
        .containsExactly(tuple("qperf-tcp_lat", 1, 60L), tuple("qperf-udp_lat", 2, 60L), tuple("ping", 3, 120L));
    // sixty 1-s tests: the loop steps qperf's message timeout from its default 5 s, which the traffic never reaches;
    // stdbuf -oL, or through the pipe the seconds arrive all at once at the loop's end
    assertThat(p.clients().get(0).command().render()).isEqualTo(
        "stdbuf -oL qperf 198.18.0.2 -lp 19765 -t 1 -m 64 -vvu -oo timeout:5:64:1 tcp_lat");
    assertThat(p.clients().get(1).command().render()).endsWith("-oo timeout:5:64:1 udp_lat");

    var judged = StagedStop.judgedStages(p);
    assertThat(judged).containsOnlyKeys(1, 2);
    assertThat(judged.get(1)).extracting(ResultRule::metric, ResultRule::interim, ResultRule::interimSource)
        .containsExactly("tcp_lat_us", "interim_tcp_lat_msg_rate", "qperf-tcp_lat");
    assertThat(judged.get(2).metric()).isEqualTo("udp_lat_us");
    RepetitionShape shape = RepetitionRunner.shape(p, Duration.ofSeconds(10), true,
        new java.util.TreeMap<>(java.util.Map.of(1, Duration.ofSeconds(60), 2, Duration.ofSeconds(60))));
    assertThat(shape.staged()).isTrue();
    assertThat(shape.stages()).isEqualTo(3);
    assertThat(StagedStop.stageTimes(p, judged.keySet())).containsExactly(
        java.util.Map.entry(1, Duration.ofSeconds(60)),
        java.util.Map.entry(2, Duration.ofSeconds(60)));
    // the progress bar's length when no stage stops early: 60 + 60 + 120 s
    assertThat(StagedStop.plannedSeconds(p)).isEqualTo(240);
    // tcp_lat stopped precise, udp_lat ran its loop out, ping its count
    assertThat(StagedStop.stopReasons(p, judged, java.util.Set.of(1))).containsExactly(
        java.util.Map.entry("tcp_lat_us", "precise"), java.util.Map.entry("udp_lat_us", "duration"),
        java.util.Map.entry("rtt_avg_ms", "duration"));
  }

  @Test
  void withAFixedStopOrTheSpreadRuleOrUnaskedItIsTheSeedsQperfAndNothingIsJudged() throws Exception {
    for (TestProcedure p : List.of(latency("stop: fixed\n"), latency("stop: steady\nsteady: { criterion: spread }\n"),
        latency("stop: steady\n", ""))) {
      String stop = p.clients().toString();
      assertThat(p.clients()).as(stop).extracting(HostCommand::tool, HostCommand::stage)
          .containsExactly(tuple("qperf", 1), tuple("ping", 2));
      assertThat(p.clients().get(0).command().render()).isEqualTo(
          "qperf 198.18.0.2 -lp 19765 -t 60 tcp_lat udp_lat -m 64 -vvu");
      assertThat(StagedStop.judgedStages(p)).as(stop).isEmpty();
      assertThat(RepetitionRunner.steadyStoppable(p)).as(stop + ": ping prints its figure at its end").isFalse();
      assertThat(StagedStop.plannedSeconds(p)).as(stop + ": qperf's two 60-s tests, then 120 pings").isEqualTo(240);
    }
  }
}
