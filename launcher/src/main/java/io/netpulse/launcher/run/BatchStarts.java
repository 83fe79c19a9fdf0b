package io.netpulse.launcher.run;

import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.remote.Launch;
import io.netpulse.launcher.remote.RemoteBatch;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import io.netpulse.launcher.remote.RemoteProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts servers or a stage's clients with one remote command per host ({@link RemoteBatch}), the hosts at once.
 * Clients are held at a start barrier until every host's batch has reported all its PIDs and then released
 * together: a sum over instances is only the load the SUT took if the instances ran at the same time. Started one
 * by one over SSH on a busy host, 8 TCP_CRR clients of 6 s started 2.2–3.9 s apart and ended as far apart, and the
 * sum of their rates read 1.4–1.65 × the connections they made together per second; released together, 1.00.
 */
final class BatchStarts {

  private static final Logger LOG = LoggerFactory.getLogger(BatchStarts.class);
  /** Instances that started further apart than this are reported: their sum overstates the load taken together. */
  static final long SPAN_NOTE_MILLIS = 1_000;

  private BatchStarts() {}

  /**
   * Starts {@code commands} and checks that none fails within {@code check} of its start; each command's process is
   * put into {@code started} as soon as its host's batch is up, so that it is stopped later whatever fails after.
   *
   * @param together hold the instances at a barrier until every host's batch is up, then release them at once
   * @param check    how long to watch for failures at start, per host (null: 300 ms times the host's load factor)
   * @param note     where to say that released instances started far apart
   * @return local epoch ms at which the commands started (the release)
   */
  static long start(Function<String, RemoteHost> hosts, List<HostCommand> commands, Function<HostCommand, String> label,
      Function<HostCommand, Consumer<String>> lines, boolean together, Function<RemoteHost, Duration> check,
      Map<HostCommand, RemoteProcess> started, Consumer<String> note) throws RemoteFailure, InterruptedException {
    return start(hosts, commands, label, lines, together, check, b -> null, started, note);
  }

  /**
   * As above; {@code ready} gives per host's batch what ends its start check early (null: nothing, the whole check
   * is waited), see {@link RemoteBatch#checkStarted(Duration, java.util.function.BooleanSupplier)}.
   */
  static long start(Function<String, RemoteHost> hosts, List<HostCommand> commands, Function<HostCommand, String> label,
      Function<HostCommand, Consumer<String>> lines, boolean together, Function<RemoteHost, Duration> check,
      Function<RemoteBatch, java.util.function.BooleanSupplier> ready, Map<HostCommand, RemoteProcess> started,
      Consumer<String> note) throws RemoteFailure, InterruptedException {
    Map<String, List<HostCommand>> byHost = new LinkedHashMap<>();
    commands.forEach(c -> byHost.computeIfAbsent(c.host(), h -> new ArrayList<>()).add(c));
    List<Parallel.Task<Map.Entry<List<HostCommand>, RemoteBatch>>> tasks = new ArrayList<>();
    byHost.forEach((host, cs) -> tasks.add(() -> {
      List<Launch> launches = cs.stream().map(c -> new Launch(label.apply(c), c.command(), lines.apply(c))).toList();
      return Map.entry(cs, hosts.apply(host).startBatch(launches, together));
    }));
    List<RemoteBatch> batches = new ArrayList<>();
    Map<HostCommand, RemoteProcess> up = new ConcurrentHashMap<>();
    try {
      Parallel.callAll(tasks, e -> {
        batches.add(e.getValue());
        for (int i = 0; i < e.getKey().size(); i++) {
          up.put(e.getKey().get(i), e.getValue().processes().get(i));
        }
      });
    } finally {
      for (HostCommand c : commands) { // in the procedure's order, for outputs and sums
        RemoteProcess p = up.get(c);
        if (p != null) {
          started.put(c, p);
        }
      }
    }
    if (together) {
      for (RemoteBatch b : batches) {
        b.onStarted(span -> reportSpan(b, span, hosts, note));
      }
    }
    long released = System.currentTimeMillis();
    for (RemoteBatch b : batches) {
      released = Math.min(released, b.release());
    }
    // the hosts at once: each may wait its whole check (and a readiness look costs a round trip to its host)
    List<Parallel.Task<Boolean>> checks = new ArrayList<>();
    for (RemoteBatch b : batches) {
      checks.add(() -> {
        b.checkStarted(check.apply(hosts.apply(b.host())), ready.apply(b));
        return true;
      });
    }
    Parallel.callAll(checks, ok -> {});
    return released;
  }

  /** Logs how far apart a released batch's instances started (host uptime stamps); says so when that is far. */
  private static void reportSpan(RemoteBatch b, long spanMillis, Function<String, RemoteHost> hosts,
      Consumer<String> note) {
    LOG.debug("{}: {} released, started within {} ms", b.host(), b, spanMillis);
    if (spanMillis > SPAN_NOTE_MILLIS && b.processes().size() > 1) {
      note.accept(String.format(java.util.Locale.ROOT, "host %s: %d clients started %.1f s apart (%s): a sum over"
          + " them overstates what ran at once", b.host(), b.processes().size(), spanMillis / 1000.0,
          hosts.apply(b.host()).load()));
    }
  }
}
