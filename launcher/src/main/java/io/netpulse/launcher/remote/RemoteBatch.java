package io.netpulse.launcher.remote;

import com.jcraft.jsch.ChannelExec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several instances started on one host by one remote command ({@link BatchScript}), each a {@link RemoteProcess}
 * of its own: own PID and process group, own stdout and stderr, stoppable alone. A held batch's instances wait at a
 * start barrier until {@link #release}. One daemon thread reads the channel and hands each line to its instance.
 */
public final class RemoteBatch {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteBatch.class);

  /** Between two looks whether a batch is ready (each may cost an SSH round trip). */
  private static final long READY_POLL_MILLIS = 50;
  private final RemoteHost host;
  private final ChannelExec channel;
  private final OutputStream stdin;
  private final TailBuffer stderr;
  private final List<RemoteProcess> processes;
  private final List<io.netpulse.launcher.procedure.RemoteCommand> commands;
  private final String what;
  private final boolean held;
  /** The instances' start stamps ({@code g} lines), guarded by this batch. */
  private final StartStamps starts;
  private int pids;
  private boolean batchSeen;
  private boolean ended;
  private int exitStatus = Integer.MIN_VALUE;
  private long releasedMillis;
  private java.util.function.LongConsumer onStarted;
  private boolean startedReported;
  private volatile boolean open = true;

  RemoteBatch(RemoteHost host, ChannelExec channel, OutputStream stdin, TailBuffer stderr,
      List<RemoteProcess> processes, List<io.netpulse.launcher.procedure.RemoteCommand> commands, boolean held) {
    this.host = host;
    this.channel = channel;
    this.stdin = stdin;
    this.stderr = stderr;
    this.processes = List.copyOf(processes);
    this.commands = List.copyOf(commands);
    this.held = held;
    this.what = describe(processes);
    this.starts = new StartStamps(processes.size());
    for (RemoteProcess p : processes) {
      p.attach(() -> letGo(p));
    }
  }

  /** "256 netperf instances (netperf#0 … netperf#255)" or "netserver#3". */
  private static String describe(List<RemoteProcess> ps) {
    if (ps.size() == 1) {
      return ps.get(0).label();
    }
    String first = ps.get(0).label();
    String tool = first.contains("#") ? first.substring(0, first.indexOf('#')) : first;
    boolean oneTool = ps.stream().allMatch(p -> p.label().startsWith(tool + "#") || p.label().equals(tool));
    return ps.size() + " " + (oneTool ? tool + " " : "") + "instances (" + first + " … "
        + ps.get(ps.size() - 1).label() + ")";
  }

  /** The instances, in the order they were given. */
  public List<RemoteProcess> processes() {
    return processes;
  }

  public String host() {
    return host.name();
  }

  boolean isOpen() {
    return open;
  }

  void readFrom(InputStream out) {
    Thread reader = new Thread(() -> read(out), "remote-" + host.name() + "-batch");
    reader.setDaemon(true);
    reader.start();
  }

  private void read(InputStream out) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        try {
          take(line);
        } catch (RuntimeException e) { // a garbled line (interleaved past PIPE_BUF) must not end the others' reading
          LOG.debug("{} batch: cannot read line '{}': {}", host.name(), line, e.toString());
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("{} batch: stdout ended: {}", host.name(), e.toString());
    } finally {
      SingleChannel.awaitClosed(channel);
      int status = channel.getExitStatus();
      closeChannel();
      // an instance whose exit never came was lost with the channel (the watchdog has killed it)
      processes.forEach(p -> p.ended(-1));
      synchronized (this) {
        ended = true;
        exitStatus = status;
        notifyAll();
      }
    }
  }

  /** One line of the protocol (see {@link BatchScript}); anything before the batch marker is a login script's. */
  private void take(String line) {
    if (!batchSeen) {
      if (line.startsWith(BatchScript.BATCH_MARKER)) {
        String[] f = line.substring(BatchScript.BATCH_MARKER.length()).split(" ");
        host.observed(HostLoad.parse(f.length > 1 ? f[1] : null, f.length > 2 ? f[2] : null));
        synchronized (this) {
          batchSeen = true;
          notifyAll();
        }
      }
      return;
    }
    BatchLine b = BatchLine.parse(line);
    if (b == null) {
      LOG.debug("{} batch: unexpected line '{}'", host.name(), line);
      return;
    }
    int instance = b.instance();
    if (instance < 0 || instance >= processes.size()) {
      return;
    }
    RemoteProcess p = processes.get(instance);
    String rest = b.rest();
    switch (b.kind()) {
      case 'o' -> p.line(rest);
      case 'e' -> p.stderrLine(rest);
      case 'p' -> {
        p.started(Long.parseLong(rest.strip()));
        synchronized (this) {
          pids++;
          notifyAll();
        }
      }
      case 'g' -> {
        if (held) {
          p.released();
        }
        java.util.function.LongConsumer report;
        OptionalLong span;
        synchronized (this) {
          starts.arrived(instance, rest, System.currentTimeMillis());
          notifyAll();
          span = startSpanMillis();
          report = span.isPresent() && !startedReported ? onStarted : null;
          startedReported |= report != null;
        }
        if (report != null) {
          report.accept(span.getAsLong());
        }
      }
      case 'x' -> {
        p.ended(BatchScript.exitStatus(Integer.parseInt(rest.strip())));
        synchronized (this) {
          notifyAll(); // an instance that ended before its start stamp no longer holds up awaitAllStarting
        }
      }
      default -> LOG.debug("{} batch: unexpected line '{}'", host.name(), line);
    }
  }

  /**
   * Waits until every instance has its PID: first for the batch shell (within {@code firstLine}), then as long as
   * PIDs keep coming, failing only when none has come for {@code stall} (both grow with the host's load). A failure
   * says what was waited for and how far it got.
   */
  void awaitPids(Duration firstLine, Duration stall) throws RemoteFailure {
    long started = System.nanoTime();
    try {
      synchronized (this) {
        long deadline = System.nanoTime() + firstLine.toNanos();
        while (!batchSeen && !ended) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw failure("no answer from the remote shell within " + firstLine.toMillis() + " ms (waited for it to"
                + " print its PID before starting " + what + "; " + host.load()
                + "); is the remote login shell slow or printing to stdout?");
          }
          wait(Math.max(1, left / 1_000_000));
        }
        int seen = -1;
        long lastProgress = System.nanoTime();
        while (pids < processes.size() && !ended) {
          if (pids != seen) {
            seen = pids;
            lastProgress = System.nanoTime();
          }
          long left = lastProgress + stall.toNanos() - System.nanoTime();
          if (left <= 0) {
            String err = stderr.tail(3);
            throw failure(String.format(Locale.ROOT, "%d of %s reported no PID: none came for %d ms after the last"
                    + " of %d (%.1f s into the start; waited as long as PIDs kept coming; %s); the host is too busy"
                    + " or its shell stalled%s", processes.size() - pids, what, stall.toMillis(), pids,
                (System.nanoTime() - started) / 1e9, host.load(), err.isEmpty() ? "" : ": " + err));
          }
          wait(Math.max(1, left / 1_000_000));
        }
        if (pids < processes.size()) {
          throw failure("the start of " + what + " ended (exit " + exitText() + ") after " + pids + " of "
              + processes.size() + " PIDs: " + orNothing(stderr.tail(3)));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while starting " + what);
    }
    LOG.debug("{}: {} started in {} ms", host.name(), what, (System.nanoTime() - started) / 1_000_000);
  }

  private String exitText() {
    return exitStatus == Integer.MIN_VALUE ? "unknown" : exitStatus == BatchScript.NO_DIRECTORY
        ? exitStatus + ": no temporary directory or FIFO" : String.valueOf(exitStatus);
  }

  /**
   * Lets every instance of a held batch start now (one line to the watchdog, which opens the barrier); returns the
   * local time it was sent.
   */
  public long release() throws RemoteFailure {
    if (!held) {
      return System.currentTimeMillis();
    }
    try {
      stdin.write("go\n".getBytes(StandardCharsets.US_ASCII));
      stdin.flush();
      synchronized (this) {
        releasedMillis = System.currentTimeMillis();
        return releasedMillis;
      }
    } catch (IOException e) {
      throw failure("cannot release " + what + ": " + e.getMessage() + "; is the host still up?");
    }
  }

  /**
   * Resumes every instance of the batch that was paused (its pause text, see {@link Launch#pauseOn}): one line to the
   * watchdog, which sends SIGCONT to each instance's group; no round trip. Does nothing to a running instance.
   */
  public void resume() throws RemoteFailure {
    try {
      stdin.write("cont\n".getBytes(StandardCharsets.US_ASCII));
      stdin.flush();
    } catch (IOException e) {
      throw failure("cannot resume " + what + ": " + e.getMessage() + "; is the host still up?");
    }
  }

  /** {@link #checkStarted(Duration)} for 300 ms times the host's load factor. */
  public void checkStarted() throws RemoteFailure {
    checkStarted(host.load().scale(RemoteHost.STARTUP_CHECK));
  }

  /**
   * Waits {@code check} from the release (or now) for instances that fail at start, and reports the first with its
   * likely cause; instances that end with status 0 are not failures.
   */
  public void checkStarted(Duration check) throws RemoteFailure {
    checkStarted(check, null);
  }

  /**
   * As {@link #checkStarted(Duration)}, but over as soon as {@code ready} (polled; null: never) says every instance is
   * up, e.g. servers seen listening: they need not wait out the rest of a time meant for the slowest host.
   */
  public void checkStarted(Duration check, java.util.function.BooleanSupplier ready) throws RemoteFailure {
    long from;
    try {
      // from the last instance's start stamp, not the release: on a loaded host an instance may reach its exec
      // (and fail there) well after the release, and a check timed from the release would miss it
      awaitAllStarting(host.load().scale(RemoteHost.PID_STALL));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while starting " + what);
    }
    synchronized (this) {
      from = Math.max(releasedMillis == 0 ? System.currentTimeMillis() : releasedMillis, starts.lastSeenMillis());
    }
    long end = from + check.toMillis();
    if (ready == null) {
      for (int i = 0; i < processes.size(); i++) {
        RemoteProcess p = processes.get(i);
        throwIfFailed(i, p.awaitExit(Duration.ofMillis(Math.max(0, end - System.currentTimeMillis()))));
      }
      return;
    }
    while (true) {
      for (int i = 0; i < processes.size(); i++) {
        throwIfFailed(i, processes.get(i).awaitExit(Duration.ZERO));
      }
      if (System.currentTimeMillis() >= end) {
        return;
      }
      if (ready.getAsBoolean()) {
        for (int i = 0; i < processes.size(); i++) { // one that failed while we looked
          throwIfFailed(i, processes.get(i).awaitExit(Duration.ZERO));
        }
        return;
      }
      try {
        Thread.sleep(Math.max(1, Math.min(READY_POLL_MILLIS, end - System.currentTimeMillis())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure("interrupted while starting " + what);
      }
    }
  }

  private void throwIfFailed(int i, OptionalInt exit) throws RemoteFailure {
    if (exit.isPresent() && exit.getAsInt() != 0) {
      RemoteProcess p = processes.get(i);
      throw StartFailure.describe(host.name(), p.label(), commands.get(i), exit.getAsInt(), p.complaint(3));
    }
  }

  /**
   * How far apart the instances' commands started (host uptime stamps), once all have; empty before, or when the
   * host has no {@code /proc/uptime}.
   */
  public synchronized OptionalLong startSpanMillis() {
    return starts.spanMillis();
  }

  /**
   * Calls {@code listener} with {@link #startSpanMillis} once every instance has started (now, if all have), from
   * the batch's reader thread.
   */
  public void onStarted(java.util.function.LongConsumer listener) {
    OptionalLong span;
    synchronized (this) {
      onStarted = listener;
      span = startSpanMillis();
      if (span.isEmpty() || startedReported) {
        return;
      }
      startedReported = true;
    }
    listener.accept(span.getAsLong());
  }

  private boolean allStartingOrEnded() {
    for (int i = 0; i < processes.size(); i++) {
      if (!starts.seen(i) && processes.get(i).isAlive()) {
        return false;
      }
    }
    return true;
  }

  /** Waits until every instance has sent its start stamp or ended (one that fails at the barrier sends none). */
  private synchronized void awaitAllStarting(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ended && System.nanoTime() < deadline && !allStartingOrEnded()) {
      wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
  }

  /** Waits up to {@code timeout} for every instance's start stamp; the span as {@link #startSpanMillis}. */
  public synchronized OptionalLong awaitStartSpan(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    OptionalLong span = startSpanMillis();
    while (span.isEmpty() && !ended && System.nanoTime() < deadline) {
      wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      span = startSpanMillis();
    }
    return span;
  }

  /**
   * An instance given up on (no exit seen after KILL): taken as ended; once no instance is left, the channel is
   * closed, and the watchdog KILLs whatever of the batch still runs.
   */
  private void letGo(RemoteProcess p) {
    p.ended(-1);
    if (processes.stream().noneMatch(RemoteProcess::isAlive)) {
      closeChannel();
    }
  }

  /** Closes the channel: the watchdog sees EOF and KILLs what is left. */
  void closeChannel() {
    open = false;
    try {
      stdin.close();
    } catch (IOException ignored) {
      // the channel is gone already
    }
    channel.disconnect();
  }

  private RemoteFailure failure(String message) {
    return new RemoteFailure(host.name(), "host " + host.name() + ": " + message);
  }

  private static String orNothing(String s) {
    return s.isEmpty() ? "(nothing on stderr)" : s;
  }

  @Override
  public String toString() {
    return host.name() + " batch of " + what;
  }
}
