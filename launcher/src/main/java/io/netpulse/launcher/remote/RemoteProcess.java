package io.netpulse.launcher.remote;

import com.jcraft.jsch.ChannelExec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
 * A long-running command on a remote host, started by {@link RemoteHost#start}. Its PID is also its process group
 * (sshd makes the exec'd shell a session leader and {@code exec} keeps the PID), so signals go to the whole group and
 * reach the children of shell loops. One daemon thread per process reads its stdout.
 */
public final class RemoteProcess {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteProcess.class);
  static final String PID_MARKER = "netpulse-pid=";
  private static final Pattern SIGNAL_NAME = Pattern.compile("[A-Z][A-Z0-9+-]*");
  /** How long after stdout's EOF to wait for the exit status that OpenSSH sends alongside. */
  private static final long CLOSE_WAIT_MILLIS = 5_000;

  private final RemoteHost host;
  private final String label;
  private final String commandLine;
  private final ChannelExec channel;
  private final OutputStream stdin;
  private final TailBuffer stdout = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
  private final TailBuffer stderr;
  private final Consumer<String> onLine;
  private final CompletableFuture<Long> pid = new CompletableFuture<>();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile long startedMillis;
  private volatile long endedMillis;

  RemoteProcess(RemoteHost host, String label, String commandLine, ChannelExec channel, OutputStream stdin,
      TailBuffer stderr, Consumer<String> onLine) {
    this.host = host;
    this.label = label;
    this.commandLine = commandLine;
    this.channel = channel;
    this.stdin = stdin;
    this.stderr = stderr;
    this.onLine = onLine;
  }

  /** Starts the stdout reader; the PID arrives as the first line the wrapper prints. */
  void readFrom(InputStream out) {
    Thread reader = new Thread(() -> read(out), "remote-" + host.name() + "-" + label);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(InputStream out) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!pid.isDone()) {
          if (line.startsWith(PID_MARKER)) {
            startedMillis = System.currentTimeMillis();
            pid.complete(Long.parseLong(line.substring(PID_MARKER.length()).strip()));
          }
          continue; // anything a login script printed before our marker is not the command's output
        }
        stdout.append(line);
        if (onLine != null) {
          try {
            onLine.accept(line);
          } catch (RuntimeException e) {
            LOG.warn("{} {}: line consumer failed: {}", host.name(), label, e.toString());
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("{} {}: stdout ended: {}", host.name(), label, e.toString());
    } finally {
      finish();
    }
  }

  private void finish() {
    long deadline = System.currentTimeMillis() + CLOSE_WAIT_MILLIS;
    while (!channel.isClosed() && System.currentTimeMillis() < deadline) {
      sleep(5);
    }
    // OpenSSH sends exit-signal instead of exit-status for a killed process; jsch then reports -1
    int status = channel.getExitStatus();
    endedMillis = System.currentTimeMillis();
    try {
      stdin.close(); // EOF on the remote stdin ends the watchdog too
    } catch (IOException ignored) {
      // the channel is gone already
    }
    channel.disconnect();
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

  void stopChannel() {
    try {
      stdin.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    channel.disconnect();
  }

  public String host() {
    return host.name();
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

  String stderrTail(int lines) {
    return stderr.tail(lines);
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

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return host.name() + " " + label + " (pid " + pid() + ")";
  }
}
