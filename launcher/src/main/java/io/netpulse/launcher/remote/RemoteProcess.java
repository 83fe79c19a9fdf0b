package io.netpulse.launcher.remote;

import java.io.IOException;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A long-running command on a remote host, started by {@link RemoteHost#start} (one exec channel of its own) or as
 * one instance of a {@link RemoteBatch} (one channel for all of a host's instances). Its PID is also its process
 * group (sshd makes the exec'd shell a session leader and {@code exec} keeps the PID; a batch starts each instance
 * with {@code setsid}), so signals go to the whole group and reach the children of shell loops.
 */
public final class RemoteProcess {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteProcess.class);
  static final String PID_MARKER = "netpulse-pid=";
  private static final Pattern SIGNAL_NAME = Pattern.compile("[A-Z][A-Z0-9+-]*");

  /** How the process's output reaches us, and how to let go of it when no exit will come. */
  interface Transport {
    /** Gives up on the process: its exit is taken as -1 unless already seen. */
    void close();
  }

  private final RemoteHost host;
  private final String label;
  private final String commandLine;
  private final TailBuffer stdout = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
  private final TailBuffer stderr;
  private final Consumer<String> onLine;
  private final CompletableFuture<Long> pid = new CompletableFuture<>();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile Transport transport = () -> { };
  private volatile long startedMillis;
  private volatile long endedMillis;

  RemoteProcess(RemoteHost host, String label, String commandLine, TailBuffer stderr, Consumer<String> onLine) {
    this.host = host;
    this.label = label;
    this.commandLine = commandLine;
    this.stderr = stderr;
    this.onLine = onLine;
  }

  void attach(Transport t) {
    this.transport = t;
  }

  /** The PID is known: the process runs (or, in a held batch, waits for its release). */
  void started(long remotePid) {
    if (!pid.isDone()) {
      startedMillis = System.currentTimeMillis();
      pid.complete(remotePid);
    }
  }

  /** A held batch instance was released: its command starts now. */
  void released() {
    startedMillis = System.currentTimeMillis();
  }

  /** A line the command printed on stdout. */
  void line(String line) {
    stdout.append(line);
    if (onLine != null) {
      try {
        onLine.accept(line);
      } catch (RuntimeException e) {
        LOG.warn("{} {}: line consumer failed: {}", host.name(), label, e.toString());
      }
    }
  }

  void stderrLine(String line) {
    stderr.append(line);
  }

  /** It ended with {@code status} (-1: killed by a signal, or lost); one that never printed a PID never will. */
  void ended(int status) {
    if (exit.isDone()) {
      return;
    }
    endedMillis = System.currentTimeMillis();
    pid.completeExceptionally(new IOException("ended before printing its PID"));
    exit.complete(status);
  }

  /** Waits for the PID line; a failure names the host and shows what the shell printed instead. */
  void awaitPid(Duration timeout) throws RemoteFailure {
    try {
      pid.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      awaitExit(Duration.ofSeconds(2));
      throw new RemoteFailure(host.name(), "host " + host.name() + ": " + label + " did not start (exit "
          + exit.getNow(-1) + "): " + orNothing(stderr.tail(3)));
    } catch (TimeoutException e) {
      stopChannel();
      throw new RemoteFailure(host.name(), "host " + host.name() + ": " + label + " printed no PID within "
          + timeout.toMillis() + " ms; is the remote login shell slow or printing to stdout?");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopChannel();
      throw new RemoteFailure(host.name(), "host " + host.name() + ": interrupted while starting " + label);
    }
  }

  /** Lets go of the process's channel (for a batch instance: of the instance; the channel when none is left). */
  void stopChannel() {
    transport.close();
  }

  public String host() {
    return host.name();
  }

  RemoteHost remoteHost() {
    return host;
  }

  public String label() {
    return label;
  }

  /** The command as the remote shell ran it (quoted). */
  public String commandLine() {
    return commandLine;
  }

  /** The remote PID, which is also the process group of everything it started. */
  public long pid() {
    return pid.getNow(-1L);
  }

  public boolean isAlive() {
    return !exit.isDone();
  }

  /** The exit status once exited within the timeout (-1: killed by a signal or the connection was lost). */
  public OptionalInt awaitExit(Duration timeout) {
    try {
      return OptionalInt.of(exit.get(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      return OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return exit.isDone() ? OptionalInt.of(exit.join()) : OptionalInt.empty();
    } catch (ExecutionException e) {
      return OptionalInt.of(-1);
    }
  }

  /** Sends SIG{@code signalName} (e.g. INT, TERM, ALRM, KILL) to the process group; no-op once exited. */
  public void signal(String signalName) {
    String name = checkedSignal(signalName);
    if (isAlive() && pid() > 0) {
      host.signalGroups(name, java.util.List.of(pid()));
    }
  }

  static String checkedSignal(String signalName) {
    String name = signalName.startsWith("SIG") ? signalName.substring(3) : signalName;
    if (!SIGNAL_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a signal name: '" + signalName + "'");
    }
    return name;
  }

  /** TERM to the group, KILL after {@code grace}; idempotent, no-op once exited. */
  public void stop(Duration grace) {
    if (!isAlive()) {
      return;
    }
    signal("TERM");
    if (awaitExit(grace).isEmpty()) {
      LOG.info("{} {} (pid {}) still running {} ms after TERM; sending KILL", host.name(), label, pid(),
          grace.toMillis());
      signal("KILL");
      if (awaitExit(Duration.ofSeconds(5)).isEmpty()) {
        LOG.warn("{} {} (pid {}): no exit seen after KILL; closing its channel", host.name(), label, pid());
        stopChannel();
      }
    }
  }

  public String stdout() {
    return stdout.text();
  }

  public String stderr() {
    return stderr.text();
  }

  /**
   * What the process last said about its failure: stderr's last {@code lines} lines, or when stderr is empty stdout's,
   * marked as such. netperf prints its errors to stdout (netlib's {@code where}), after its interim lines.
   */
  public String complaint(int lines) {
    String err = stderr.tail(lines);
    if (!err.isEmpty()) {
      return err;
    }
    String out = stdout.tail(lines);
    return out.isEmpty() ? "" : "stdout: " + out;
  }

  /** Local epoch ms at which the PID arrived. */
  public long startedMillis() {
    return startedMillis;
  }

  /** Local epoch ms at which it ended; 0 while running. */
  public long endedMillis() {
    return endedMillis;
  }

  private static String orNothing(String s) {
    return s.isEmpty() ? "(nothing on stderr)" : s;
  }

  @Override
  public String toString() {
    return host.name() + " " + label + " (pid " + pid() + ")";
  }
}
