package io.netpulse.launcher.run;

import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.procedure.Role;
import io.netpulse.launcher.procedure.TestProcedure;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.tools.ss.ListeningSockets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starts one repetition's samplers, servers and clients on its hosts, a remote command per host for each kind, and
 * stops what it started: how many processes go up at once and how their start is checked, apart from when
 * ({@link RepetitionRunner}, {@link RepetitionSchedule}).
 */
final class RepetitionStarts {

  private static final Duration STOP_GRACE = Duration.ofSeconds(3);
  /**
   * Servers bind their ports within this time (times their host's load factor); one that has exited by then failed
   * to start.
   */
  private static final Duration SERVER_SETTLE = Duration.ofMillis(500);
  /** Servers that bind their one port at start, so that a listening socket of theirs means they are up. */
  private static final java.util.Set<String> ONE_LISTENER = java.util.Set.of("netserver", "iperf3", "iperf", "qperf",
      "sockperf");
  /** How long one look at a host's listening sockets may take. */
  private static final Duration READY_LOOK = Duration.ofSeconds(5);
  /** Clients that fail within this time (times their host's load factor) of their release failed to start. */
  private static final Duration STARTUP_CHECK = Duration.ofMillis(300);
  private final ExecutionContext ctx;
  private final TestProcedure procedure;
  private final TestSpec test;

  RepetitionStarts(ExecutionContext ctx, TestProcedure procedure) {
    this.ctx = ctx;
    this.procedure = procedure;
    this.test = procedure.test();
  }

  /**
   * One remote command per host starts its samplers, as its servers: one SSH round trip per host, not one per sampler
   * (on a loaded host each channel's start took 0.4-1.5 s, and sar, the CPU sampler and ss are two or three a host).
   */
  void samplers(String run, List<RemoteProcess> samplers) throws RemoteFailure, InterruptedException {
    Map<HostCommand, RemoteProcess> started = new java.util.LinkedHashMap<>();
    try {
      // a sampler that fails within 300 ms of its start fails the repetition, as when each was started alone; not
      // scaled by the host's load like the clients' check, which runs during the warm-up: this one delays the traffic
      BatchStarts.start(ctx.hosts()::host, procedure.allSamplers(), RepetitionStarts::label,
          c -> ctx.publisher().lineEmitter(c.host(), c.tool(), run)::emit, false,
          h -> STARTUP_CHECK, started, ctx.progress()::message);
    } finally {
      samplers.addAll(started.values());
    }
  }

  /**
   * Starts the servers; if one could not, and what holds its host's ports is only sockets an earlier test left in
   * TIME-WAIT (see {@link PortOccupants}), waits for Linux to end them and starts the servers once more. Anything else
   * holding a port is named in the failure.
   */
  void servers(List<RemoteProcess> servers) throws RemoteFailure, InterruptedException {
    try {
      startServersOnce(servers);
    } catch (RemoteFailure failed) {
      stopAll(ctx, servers);
      servers.clear();
      if (!PortOccupants.awaitFree(failed, procedure.servers(), ctx.hosts()::host, READY_LOOK,
          line -> ctx.progress().message(test.label() + ": " + line))) {
        throw failed;
      }
      startServersOnce(servers);
    }
  }

  /** One remote command per host starts its servers (a seed's 256 netservers; see {@link BatchStarts}). */
  private void startServersOnce(List<RemoteProcess> servers) throws RemoteFailure, InterruptedException {
    Map<HostCommand, RemoteProcess> started = new java.util.LinkedHashMap<>();
    try {
      // the settle time is the startup check: a server that failed at start has exited by then; one seen listening
      // is up, and its clients need not wait out the rest
      BatchStarts.start(ctx.hosts()::host, procedure.servers(), RepetitionStarts::label, c -> null, false,
          h -> h.load().scale(SERVER_SETTLE), this::listening, started, ctx.progress()::message);
    } finally {
      servers.addAll(started.values());
    }
    for (RemoteProcess p : servers) {
      if (!p.isAlive()) {
        throw new RemoteFailure(p.host(), p.label() + " exited at start" + RepetitionRunner.exit(p)
            + RepetitionRunner.complaint(p)
            + "; is its port already in use on " + p.host() + "?");
      }
    }
  }

  /**
   * True once every server of {@code batch} owns a listening (TCP) or bound (UDP) socket, as {@code ss -Hlntup} on its
   * host shows; null (wait the whole settle time) where a server listens on several ports it binds one after another
   * (the connection holders) or where ss cannot tell (not installed: then false from the first look on).
   */
  private java.util.function.BooleanSupplier listening(io.netpulse.launcher.remote.RemoteBatch batch) {
    boolean oneListenerEach = procedure.servers().stream().filter(c -> c.host().equals(batch.host()))
        .allMatch(c -> ONE_LISTENER.contains(c.tool()));
    if (!oneListenerEach) {
      return null;
    }
    RemoteHost host = ctx.hosts().host(batch.host());
    List<String> argv = ListeningSockets.command();
    io.netpulse.launcher.procedure.RemoteCommand ss =
        io.netpulse.launcher.procedure.RemoteCommand.of(argv.get(0), argv.subList(1, argv.size()).toArray());
    boolean[] unusable = {false};
    return () -> {
      if (unusable[0]) {
        return false;
      }
      try {
        io.netpulse.launcher.remote.CommandResult r = host.exec(ss, READY_LOOK);
        if (!r.ok()) {
          unusable[0] = true;
          return false;
        }
        java.util.Set<Long> pids = ListeningSockets.pids(r.stdout());
        return batch.processes().stream().allMatch(p -> pids.contains(p.pid()));
      } catch (RemoteFailure e) {
        unusable[0] = true;
        return false;
      }
    };
  }

  /**
   * One remote command per host starts the stage's clients, held at a barrier until every host's are up and then
   * released together (see {@link BatchStarts}); clients that flood a shared path are set up one at a time and then
   * resumed together instead (see {@link StagedStarts}).
   */
  long clients(String run, int stage, Set<String> streamed, Map<HostCommand, RemoteProcess> clients)
      throws RemoteFailure, InterruptedException {
    List<HostCommand> commands = procedure.clients().stream().filter(c -> c.stage() == stage).toList();
    // each instance's lines carry its number: the processor sums their interim rates per second
    java.util.function.Function<HostCommand, java.util.function.Consumer<String>> lines = c -> streamed.contains(c.tool())
        ? ctx.publisher().lineEmitter(c.host(), c.tool(), run, String.valueOf(c.instance()))::emit : null;
    if (commands.size() > 1 && commands.stream().allMatch(c -> c.readyLine() != null)) {
      return StagedStarts.start(ctx.hosts()::host, commands, RepetitionStarts::label, lines, clients, ctx.progress()::message);
    }
    return BatchStarts.start(ctx.hosts()::host, commands, RepetitionStarts::label, lines, true, h -> h.load().scale(STARTUP_CHECK),
        clients, ctx.progress()::message);
  }

  private static String label(HostCommand c) {
    return c.tool() + (c.role() == Role.SAMPLER ? "" : "#" + c.instance());
  }

  /** Stops them host by host, one kill per step on each host, the hosts at once. */
  static void stopAll(ExecutionContext ctx, java.util.Collection<RemoteProcess> processes) {
    Map<String, List<RemoteProcess>> byHost = processes.stream()
        .collect(java.util.stream.Collectors.groupingBy(RemoteProcess::host));
    Parallel.runAll(byHost.entrySet().stream()
        .<Runnable>map(e -> () -> ctx.hosts().host(e.getKey()).stop(e.getValue(), STOP_GRACE)).toList());
  }
}
