package io.netpulse.launcher.run;

import io.netpulse.launcher.procedure.HostCommand;
import io.netpulse.launcher.remote.Launch;
import io.netpulse.launcher.remote.RemoteBatch;
import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteHost;
import io.netpulse.launcher.remote.RemoteProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts clients that flood a path they share ({@link HostCommand#readyLine()}: 64-byte UDP at a NIC's packet limit)
 * one at a time: each is released and paused by its host (SIGSTOP, which leaves its sockets as they are) at the line
 * that says it has set up, and the next is released when that line arrives; once the last has set up, all are
 * resumed at once (SIGCONT from each batch's watchdog), so that their floods start together.
 *
 * <p>Why not released together, as {@link BatchStarts} does: the first to set up fills the queue in front of the cap
 * at once, and the setup packets of a client a few milliseconds later are dropped in it. iperf3 3.12 sends its UDP
 * stream's hello datagram once and waits 30 s for the answer, then fails ("unable to read from stream socket:
 * Resource temporarily unavailable"), and with it the repetition. Seen through a 4 Mbit/s tbf in front of the SUT,
 * two clients on one host, and it is what a cloud's packet limit does too (a policer drops what is over the limit).
 * Paused, a client sends nothing, so the queue drains and the next client's setup gets through.
 */
final class StagedStarts {

  private static final Logger LOG = LoggerFactory.getLogger(StagedStarts.class);
  /** How long one client may take to set up with the others paused (times its host's load factor). */
  static final Duration SETUP = Duration.ofSeconds(5);
  private static final long POLL_MILLIS = 20;

  private StagedStarts() {}

  /**
   * Starts {@code commands} (every one with a ready line) as above; each process is put into {@code started} as
   * soon as it is up, so that it is stopped later whatever fails after.
   *
   * @return local epoch ms at which they were resumed together: their floods start then (the first's own time ran
   *     from its setup, a few milliseconds per client earlier)
   */
  static long start(Function<String, RemoteHost> hosts, List<HostCommand> commands, Function<HostCommand, String> label,
      Function<HostCommand, Consumer<String>> lines, Map<HostCommand, RemoteProcess> started, Consumer<String> note)
      throws RemoteFailure, InterruptedException {
    return start(hosts, commands, label, lines, started, note, SETUP);
  }

  /** The same, each client given {@code setup} (times its host's load factor) to set up. */
  static long start(Function<String, RemoteHost> hosts, List<HostCommand> commands, Function<HostCommand, String> label,
      Function<HostCommand, Consumer<String>> lines, Map<HostCommand, RemoteProcess> started, Consumer<String> note,
      Duration setup) throws RemoteFailure, InterruptedException {
    // every instance up at a barrier of its own first (at once over the hosts), paused by its host at its ready line:
    // a release is then one line to its host and a pause none, so a step costs the setup and a one-way trip or two
    Map<HostCommand, CountDownLatch> setUp = new ConcurrentHashMap<>();
    Map<HostCommand, RemoteBatch> batches = new ConcurrentHashMap<>();
    List<Parallel.Task<Map.Entry<HostCommand, RemoteBatch>>> tasks = new ArrayList<>();
    for (HostCommand c : commands) {
      CountDownLatch ready = new CountDownLatch(1);
      setUp.put(c, ready);
      Consumer<String> then = lines.apply(c);
      Consumer<String> onLine = line -> {
        if (then != null) { // first: whoever reads the lines has the ready line before the start goes on
          then.accept(line);
        }
        if (line.contains(c.readyLine())) {
          ready.countDown();
        }
      };
      tasks.add(() -> Map.entry(c, hosts.apply(c.host())
          .startBatch(List.of(new Launch(label.apply(c), c.command(), onLine, c.readyLine())), true)));
    }
    try {
      Parallel.callAll(tasks, e -> batches.put(e.getKey(), e.getValue()));
    } finally {
      for (HostCommand c : commands) { // in the procedure's order, for outputs and sums
        RemoteBatch b = batches.get(c);
        if (b != null) {
          started.put(c, b.processes().get(0));
        }
      }
    }
    long first = 0;
    long resumed;
    try {
      for (int i = 0; i < commands.size(); i++) {
        HostCommand c = commands.get(i);
        RemoteBatch b = batches.get(c);
        long released = b.release();
        first = i == 0 ? released : first;
        awaitSetUp(c, b, setUp.get(c), hosts.apply(c.host()).load().scale(setup), i);
      }
    } finally {
      // also on a failure: a paused process does not act on the TERM that stops it
      resumed = resume(commands.stream().map(batches::get).filter(java.util.Objects::nonNull).toList(), hosts);
    }
    long span = resumed - first;
    LOG.debug("{} clients set up one at a time in {} ms", commands.size(), span);
    if (span > BatchStarts.SPAN_NOTE_MILLIS) {
      note.accept(String.format(Locale.ROOT, "%d flooding clients set up one at a time in %.1f s (each paused until"
          + " the last was up)", commands.size(), span / 1000.0));
    }
    return resumed;
  }

  /** Waits for {@code c}'s ready line; a failure at start is reported as such, no ready line in time as below. */
  private static void awaitSetUp(HostCommand c, RemoteBatch b, CountDownLatch ready, Duration setup, int before)
      throws RemoteFailure, InterruptedException {
    RemoteProcess p = b.processes().get(0);
    long deadline = System.nanoTime() + setup.toNanos();
    while (!ready.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
      if (!p.isAlive()) {
        b.checkStarted(Duration.ZERO); // throws with the likely cause when it failed
      }
      if (!p.isAlive() || System.nanoTime() > deadline) {
        throw new RemoteFailure(c.host(), p.label() + (p.isAlive() ? " did not set up within " + setup.toMillis()
            + " ms" : " ended before it had set up") + (before == 0 ? "" : " with the "
            + (before == 1 ? "client" : before + " clients") + " before it paused")
            + " (no '" + c.readyLine().strip() + "' in its output: " + tail(p.stdout()) + ")");
      }
    }
  }

  /**
   * Resumes every client at once: a line to each batch's watchdog (SIGCONT there, no round trip), so that their floods
   * start together; where the line cannot be sent, a {@code kill -s CONT} over SSH. Returns when the lines were sent.
   */
  private static long resume(List<RemoteBatch> batches, Function<String, RemoteHost> hosts) {
    List<RemoteBatch> unsent = new ArrayList<>();
    for (RemoteBatch b : batches) {
      try {
        b.resume();
      } catch (RemoteFailure e) {
        LOG.debug("{}", e.getMessage());
        unsent.add(b);
      }
    }
    long sent = System.currentTimeMillis();
    unsent.forEach(b -> hosts.apply(b.host()).signal("CONT", b.processes()));
    return sent;
  }

  private static String tail(String output) {
    String s = output.strip();
    return s.isEmpty() ? "nothing" : "'" + (s.length() > 200 ? "..." + s.substring(s.length() - 200) : s) + "'";
  }
}
