package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.launcher.run.RepetitionSchedule.LostLoad;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How a repetition's clients ended, stage by stage: in time and well, or hung (stopped after their time and a slack
 * scaled by their hosts' load), or failed, which fails the repetition unless {@link LateClientFailure} says it only
 * ends the measuring window or not even that.
 */
final class ClientEnds {

  /** Slack past the tool's own duration before a client counts as hung (times its hosts' highest load factor). */
  static final Duration CLIENT_SLACK = Duration.ofSeconds(30);

  private final ExecutionContext ctx;
  private final TestProcedure procedure;
  private final TestSpec test;
  private final RepetitionSchedule schedule;

  ClientEnds(ExecutionContext ctx, TestProcedure procedure, RepetitionSchedule schedule) {
    this.ctx = ctx;
    this.procedure = procedure;
    this.test = procedure.test();
    this.schedule = schedule;
  }

  /** {@code base} times the highest load factor among the hosts of {@code commands}: a busy host is late. */
  private Duration scaled(Duration base, Collection<HostCommand> commands) {
    double factor = commands.stream().mapToDouble(c -> ctx.hosts().host(c.host()).loadFactor()).max().orElse(1);
    return Duration.ofMillis((long) Math.ceil(base.toMillis() * factor));
  }

  /**
   * Waits for the clients of a stage to end by themselves, and for the test's time where a client runs until
   * stopped; one that fails ends the repetition, unless {@link LateClientFailure} says it ends only the window (the
   * earliest such end is returned) or not even that.
   */
  Optional<LostLoad> await(int stage, Map<HostCommand, RemoteProcess> clients) throws RemoteFailure {
    Optional<LostLoad> lost = Optional.empty();
    Duration slack = scaled(CLIENT_SLACK, clients.keySet());
    RepetitionSchedule.ClientDeadlines d = schedule.clientDeadlines(slack);
    for (Map.Entry<HostCommand, RemoteProcess> e : clients.entrySet()) {
      if (e.getKey().stage() != stage) {
        continue;
      }
      RemoteProcess p = e.getValue();
      boolean holds = e.getKey().untilStopped();
      // a client with a time of its own (qperf's two tests, ping's replies) may take longer than the test's
      long ownSeconds = Math.max(procedure.toolSeconds(), e.getKey().runsSeconds());
      long hung = d.hung() + (ownSeconds - procedure.toolSeconds()) * 1_000;
      OptionalInt exit = p.awaitExit(Duration.ofMillis(Math.max(1, (holds ? d.planned() : hung) - now())));
      if (exit.isEmpty() && holds) {
        continue; // still holding, as it should: stopped with the others at STOPPING
      }
      if (exit.isEmpty()) {
        throw new RemoteFailure(p.host(), p.label() + " did not end within " + ownSeconds + " s + "
            + slack.toSeconds() + " s (" + ctx.hosts().host(e.getKey().host()).load() + "); stopped it");
      }
      if (exit.getAsInt() != 0) {
        lost = LostLoad.earliest(lost, failed(p, ownSeconds));
      }
    }
    return lost;
  }

  /**
   * A client that exited with a failure: the load it took away from the window, empty when it is excused (after its
   * time, in a test read from samplers); a {@link RemoteFailure} when it fails the repetition.
   */
  private Optional<LostLoad> failed(RemoteProcess p, long ownSeconds) throws RemoteFailure {
    String exit = RepetitionRunner.exit(p);
    String said = RepetitionRunner.complaint(p);
    String when = LateClientFailure.when(p.startedMillis(), p.endedMillis(), ownSeconds);
    String where = test.label() + ": " + p.label() + " on " + p.host() + " failed" + exit;
    OptionalLong lostAt = LateClientFailure.lostLoad(p.startedMillis(), p.endedMillis(), ownSeconds,
        procedure.results());
    if (lostAt.isPresent()) {
      ctx.progress().message(where + when + "; the measuring window ends where it stopped loading the hosts" + said);
      return Optional.of(new LostLoad(lostAt.getAsLong(), p.host(), p.label() + " failed" + exit + when + said));
    }
    Optional<String> excuse = LateClientFailure.excuse(p.startedMillis(), p.endedMillis(), ownSeconds,
        procedure.results());
    if (excuse.isEmpty()) {
      throw new RemoteFailure(p.host(), p.label() + " failed" + exit + when + said);
    }
    ctx.progress().message(where + " " + excuse.get() + said);
    return Optional.empty();
  }

  private long now() {
    return schedule.now();
  }
}
