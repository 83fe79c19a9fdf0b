package io.netpulse.launcher.remote;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSchException;
import io.netpulse.collector.SshConnection;
import io.netpulse.launcher.procedure.RemoteCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One host of a plan over SSH (jsch): exec channels share a connection, up to {@link #PROCESSES_PER_CONNECTION}
 * long-running processes per connection, more connections are opened as needed. Every process started here is
 * remembered so that {@link #stopAll} (and {@link RemoteHosts#stopAll}) can stop it by PID.
 */
public final class RemoteHost implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteHost.class);
  /** A start that has failed within this time is reported as a failed start, not as a finished process. */
  static final Duration STARTUP_CHECK = Duration.ofMillis(300);
  private static final int MAX_KILL_ARGS = 500;
  /**
   * OpenSSH allows 10 channels per connection by default (sshd_config MaxSessions); 8 long-running ones leave room
   * for the short probe and kill channels, so 300 netperf clients work against a stock sshd.
   */
  static final int PROCESSES_PER_CONNECTION = 8;

  /**
   * Runs the command with the PID first on stdout. {@code exec} keeps the PID of the shell that sshd made a session
   * (and process group) leader. The watchdog, a builtin {@code read} loop on the channel's stdin (kept as fd 3), ends
   * when the channel closes for any reason (stopped, finished, connection lost, launcher killed) and then KILLs the
   * group: without it a lost session would leave quiet processes like {@code sleep} or {@code netserver} running
   * forever (SIGPIPE only reaches a process when it writes). The command itself gets /dev/null as stdin.
   */
  private static final String WRAPPER = String.join("\n",
      "echo " + RemoteProcess.PID_MARKER + "$$",
      "exec 3<&0 </dev/null",
      "( while read -r _ <&3; do :; done; kill -s KILL -- -$$ ) >/dev/null 2>&1 &",
      "exec 3<&-",
      "exec ");

  private final String name;
  private final SshConnection connection;
  /** The first connection (above) and any further ones, each with the processes started over it. */
  private final List<Lane> lanes = new ArrayList<>();
  private final List<RemoteProcess> processes = new CopyOnWriteArrayList<>();

  /** A connection and the processes started over it; {@code starting} counts starts under way (guarded by host). */
  private static final class Lane {
    final SshConnection connection;
    final List<RemoteProcess> processes = new CopyOnWriteArrayList<>();
    int starting;

    Lane(SshConnection connection) {
      this.connection = connection;
    }

    long load() {
      return starting + processes.stream().filter(RemoteProcess::isAlive).count();
    }
  }

  RemoteHost(String name, SshConnection connection) {
    this.name = name;
    this.connection = connection;
    lanes.add(new Lane(connection));
  }

  /**
   * A connection with room for another long-running channel (a slot reserved until {@link #started}), connecting a
   * new one when all are full.
   */
  private synchronized Lane laneForProcess() throws RemoteFailure {
    for (Lane lane : lanes) {
      if (lane.load() < PROCESSES_PER_CONNECTION) {
        lane.starting++;
        return lane;
      }
    }
    SshConnection extra = new SshConnection(connection.target());
    try {
      extra.session();
    } catch (JSchException e) {
      extra.close();
      throw lost(e);
    }
    Lane lane = new Lane(extra);
    lane.starting++;
    lanes.add(lane);
    LOG.debug("{}: SSH connection {} opened for more processes", name, lanes.size());
    return lane;
  }

  private synchronized void started(Lane lane) {
    lane.starting--;
  }

  /** The least busy connection, for a short channel. */
  private synchronized SshConnection connectionForExec() {
    Lane best = lanes.get(0);
    for (Lane lane : lanes) {
      if (lane.load() < best.load()) {
        best = lane;
      }
    }
    return best.connection;
  }

  /** SSH connections open to this host (one per {@value #PROCESSES_PER_CONNECTION} running processes). */
  public synchronized int connections() {
    return lanes.size();
  }

  /** Plan host name. */
  public String name() {
    return name;
  }

  public String address() {
    return connection.target().address();
  }

  /** Runs a short command (probe, sysctl) to its end; a timeout or a lost connection is a {@link RemoteFailure}. */
  public CommandResult exec(RemoteCommand command, Duration timeout) throws RemoteFailure {
    return run(command.render(), timeout);
  }

  /** Shell text run through the login shell: only constant text built here, plan values go through RemoteCommand. */
  CommandResult run(String shellText, Duration timeout) throws RemoteFailure {
    return run(shellText, null, timeout);
  }

  /** As {@link #run(String, Duration)} with {@code input} (may be null) as the command's stdin. */
  CommandResult run(String shellText, InputStream input, Duration timeout) throws RemoteFailure {
    TailBuffer out = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    TailBuffer err = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    ChannelExec channel = null;
    try {
      channel = connectionForExec().exec(shellText, err);
      channel.setOutputStream(out, true);
      if (input != null) {
        channel.setInputStream(input, false); // jsch copies it in its own thread, then sends EOF
      }
      channel.connect(connectMillis());
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!channel.isClosed()) {
        if (System.nanoTime() > deadline) {
          throw new RemoteFailure(name, "host " + name + ": '" + abbreviate(shellText) + "' did not finish within "
              + timeout.toMillis() + " ms");
        }
        Thread.sleep(5);
      }
      return new CommandResult(channel.getExitStatus(), out.text(), err.text());
    } catch (JSchException e) {
      throw lost(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RemoteFailure(name, "host " + name + ": interrupted running '" + abbreviate(shellText) + "'");
    } finally {
      if (channel != null) {
        channel.disconnect();
      }
    }
  }

  /**
   * Starts a long-running command; returns once its PID is known and it survived a short startup check. stdout lines
   * go to {@code onLine} as they come (null: only kept); stderr is kept (tail).
   */
  public RemoteProcess start(String label, RemoteCommand command, Consumer<String> onLine) throws RemoteFailure {
    String commandLine = command.render();
    String shellText = "exec /bin/sh -c " + RemoteCommand.quote(WRAPPER + commandLine);
    TailBuffer stderr = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    RemoteProcess process;
    Lane lane = laneForProcess();
    try {
      try {
        ChannelExec channel = lane.connection.exec(shellText, stderr);
        OutputStream stdin = channel.getOutputStream(); // kept open: its EOF ends the watchdog
        InputStream stdout = channel.getInputStream();
        channel.connect(connectMillis());
        process = new RemoteProcess(this, label, commandLine, channel, stdin, stderr, onLine);
        process.readFrom(stdout);
      } catch (JSchException | IOException e) {
        throw lost(e);
      }
      process.awaitPid(connection.target().connectTimeout().plusSeconds(5));
      processes.add(process);
      lane.processes.add(process);
    } finally {
      started(lane);
    }
    OptionalInt early = process.awaitExit(STARTUP_CHECK);
    if (early.isPresent() && early.getAsInt() != 0) {
      throw StartFailure.describe(name, label, command, early.getAsInt(), process.stderrTail(3));
    }
    LOG.debug("{}: started {} pid {}: {}", name, label, process.pid(), commandLine);
    return process;
  }

  /** Every process started here, running or not. */
  public List<RemoteProcess> processes() {
    return List.copyOf(processes);
  }

  /** TERM to every running process group, KILL after {@code grace} to those still running; one kill per step. */
  public void stopAll(Duration grace) {
    stop(processes, grace);
  }

  /**
   * Stops those of {@code which} that were started here and still run: TERM to their process groups, KILL
   * after {@code grace} to those still running, one {@code kill} per step for all of them (not a round trip
   * each); a process whose exit is still not seen after KILL has its channel closed.
   */
  public void stop(Collection<RemoteProcess> which, Duration grace) {
    List<RemoteProcess> alive = alive(which);
    if (alive.isEmpty()) {
      return;
    }
    signalGroups("TERM", pids(alive));
    long deadline = System.nanoTime() + grace.toNanos();
    for (RemoteProcess p : alive) {
      p.awaitExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
    List<RemoteProcess> stubborn = alive(alive);
    if (!stubborn.isEmpty()) {
      LOG.info("{}: {} processes still running {} ms after TERM; sending KILL", name, stubborn.size(),
          grace.toMillis());
      signalGroups("KILL", pids(stubborn));
      for (RemoteProcess p : stubborn) {
        if (p.awaitExit(Duration.ofSeconds(5)).isEmpty()) {
          LOG.warn("{} {} (pid {}): no exit seen after KILL; closing its channel", name, p.label(), p.pid());
          p.stopChannel();
        }
      }
    }
  }

  private List<RemoteProcess> alive(Collection<RemoteProcess> which) {
    return which.stream().filter(processes::contains).filter(RemoteProcess::isAlive).filter(p -> p.pid() > 0)
        .toList();
  }

  private static List<Long> pids(Collection<RemoteProcess> ps) {
    return ps.stream().map(RemoteProcess::pid).toList();
  }

  /** {@code kill -s NAME -- -PID ...}; a group already gone is not an error. */
  void signalGroups(String signalName, List<Long> pids) {
    String signal = RemoteProcess.checkedSignal(signalName);
    for (int from = 0; from < pids.size(); from += MAX_KILL_ARGS) {
      List<String> words = new ArrayList<>(List.of("kill", "-s", signal, "--"));
      pids.subList(from, Math.min(pids.size(), from + MAX_KILL_ARGS)).forEach(p -> words.add("-" + p));
      try {
        CommandResult r = run(String.join(" ", words) + " 2>&1; true", Duration.ofSeconds(10));
        if (!r.stdout().isBlank()) {
          LOG.debug("{}: {}: {}", name, String.join(" ", words), r.stdout().strip());
        }
      } catch (RemoteFailure e) {
        LOG.warn("{}: cannot send {} to {} process groups: {}", name, signal, pids.size(), e.getMessage());
      }
    }
  }

  private int connectMillis() {
    return (int) connection.target().connectTimeout().toMillis();
  }

  private RemoteFailure lost(Exception e) {
    String hint = String.valueOf(e.getMessage()).contains("channel is not opened")
        ? "; the host's sshd refused another channel: is MaxSessions in its sshd_config below "
            + (PROCESSES_PER_CONNECTION + 2) + "?"
        : "; is the host still up?";
    return new RemoteFailure(name, "host " + name + " (" + address() + "): SSH failed: " + e.getMessage() + hint, e);
  }

  static String abbreviate(String s) {
    String one = s.replace('\n', ' ');
    return one.length() <= 120 ? one : one.substring(0, 117) + "...";
  }

  /** Stops this host's processes (2 s grace) and disconnects. */
  @Override
  public void close() {
    try {
      stopAll(Duration.ofSeconds(2));
    } finally {
      synchronized (this) {
        lanes.forEach(l -> l.connection.close());
      }
    }
  }

  @Override
  public String toString() {
    return name + " (" + address() + ")";
  }
}
