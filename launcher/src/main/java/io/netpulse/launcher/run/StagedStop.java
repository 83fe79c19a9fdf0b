package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.ResultRule;
import io.netpulse.launcher.procedure.TestProcedure;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * A precision stop over stages, each judged on a figure of its own: seed 000's latency test with {@code stop: steady}
 * runs qperf's tcp_lat and udp_lat as 1-s loops in two stages, each stopped when its mean is precise, then ping, which
 * prints its figure at its end and runs its count ({@link RepetitionSchedule} runs the stages).
 */
final class StagedStop {

  private StagedStop() {}

  /**
   * For a test in stages (a latency test's qperf loops, then ping), the stages whose clients stream the per-second
   * lines of one of its figures, each with that figure; empty unless every figure is either judged so or printed by a
   * client of a stage that is not (ping's, which runs its count), and some stage is judged.
   */
  static SortedMap<Integer, ResultRule> judgedStages(TestProcedure p) {
    SortedMap<Integer, ResultRule> out = new java.util.TreeMap<>();
    Set<Integer> stages = new java.util.TreeSet<>();
    p.clients().forEach(c -> stages.add(c.stage()));
    if (stages.size() < 2) {
      return out;
    }
    Set<String> printedBy = new java.util.HashSet<>();
    for (int stage : stages) {
      Set<String> tools = new java.util.HashSet<>();
      p.clients().stream().filter(c -> c.stage() == stage).forEach(c -> tools.add(c.tool()));
      p.results().stream().filter(r -> r.interimSource() != null && tools.contains(r.interimSource())).findFirst()
          .ifPresentOrElse(r -> out.put(stage, r), () -> printedBy.addAll(tools));
    }
    boolean allMade = p.results().stream().allMatch(r -> out.containsValue(r) || printedBy.contains(r.source()));
    return allMade ? out : new java.util.TreeMap<>();
  }

  /** How long each of {@code stages}' clients run (the longest of a stage's, else the tools' time). */
  static SortedMap<Integer, Duration> stageTimes(TestProcedure p, Set<Integer> stages) {
    SortedMap<Integer, Duration> out = new java.util.TreeMap<>();
    for (int stage : stages) {
      long s = p.clients().stream().filter(c -> c.stage() == stage).mapToLong(HostCommand::runsSeconds).max()
          .orElse(0);
      out.put(stage, Duration.ofSeconds(s > 0 ? s : p.toolSeconds()));
    }
    return out;
  }

  /**
   * How long a test in stages runs when no stage stops early: each stage's time one after the other (seed 000's
   * latency: qperf's 2 × 60 s and ping's 120), for the progress bar; the tools' time for a test of one stage.
   */
  static long plannedSeconds(TestProcedure p) {
    Set<Integer> stages = new java.util.TreeSet<>();
    p.clients().forEach(c -> stages.add(c.stage()));
    if (stages.size() < 2) {
      return p.toolSeconds();
    }
    return stageTimes(p, stages).values().stream().mapToLong(Duration::toSeconds).sum();
  }

  /**
   * A staged precision stop's reasons by result metric: a judged stage's metric precise where it was stopped so
   * ({@code precise}: those stages), else (it ran its loop out) the duration; the figures printed by the other stages'
   * clients ran their duration.
   */
  static Map<String, String> stopReasons(TestProcedure p, SortedMap<Integer, ResultRule> watch,
      Set<Integer> precise) {
    Map<String, String> out = new LinkedHashMap<>();
    p.results().forEach(r -> out.put(r.metric(), RunEvent.STOP_DURATION));
    watch.forEach((stage, r) -> out.put(r.metric(),
        precise.contains(stage) ? RunEvent.STOP_PRECISE : RunEvent.STOP_DURATION));
    return out;
  }
}
