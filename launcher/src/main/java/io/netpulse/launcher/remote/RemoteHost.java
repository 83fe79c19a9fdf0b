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
 * long-running channels per connection (a process of its own, or a {@link RemoteBatch} of many), more connections
 * are opened as needed. Every process started here is remembered so that {@link #stopAll} (and
 * {@link RemoteHosts#stopAll}) can stop it by PID. Waits grow with the host's load as its batches last reported it.
 */
public final class RemoteHost implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteHost.class);
  /**
   * A start that has failed within this time is reported as a failed start, not as a finished process (for a batch:
   * times the host's load factor).
   */
  static final Duration STARTUP_CHECK = Duration.ofMillis(300);
  /** A batch fails when no instance reported its PID for this long (times the host's load factor). */
  static final Duration PID_STALL = Duration.ofSeconds(15);
  /** Time for one {@code kill} over SSH (times the host's load factor). */
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);
  private static final int MAX_KILL_ARGS = 500;
  /**
   * OpenSSH allows 10 channels per connection by default (sshd_config MaxSessions); 8 long-running ones leave room
   * for the short probe and kill channels, so 300 single-started processes work against a stock sshd.
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
  private final SshLanes lanes;
  private final List<RemoteProcess> processes = new CopyOnWriteArrayList<>();
  /** Process groups a TERM or KILL could not reach, even over a new connection: maybe still running. */
  private final java.util.Set<Long> unstopped = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private volatile String unstoppedReason;
  /** Set when the run stops everything here (its end, Ctrl-C): a failed stop is then not tried again. */
  private volatile boolean closing;
  private volatile HostLoad load = HostLoad.UNKNOWN;

  RemoteHost(String name, SshConnection connection) {
    this.name = name;
    this.connection = connection;
    this.lanes = new SshLanes(name, connection, PROCESSES_PER_CONNECTION);
  }

  /** A connection with room for another long-running channel, reserved until {@link SshLanes#started}. */
  private SshLanes.Lane laneForProcess() throws RemoteFailure {
    try {
      return lanes.reserve();
    } catch (JSchException e) {
      throw lost(e);
    }
  }

  /** SSH connections open to this host (one per {@value #PROCESSES_PER_CONNECTION} long-running channels). */
  public int connections() {
    return lanes.size();
  }

  /** Plan host name. */
  public String name() {
    return name;
  }

  public String address() {
    return connection.target().address();
  }

  /** The load the host last reported (unknown before its first batch). */
  public HostLoad load() {
    return load;
  }

  /** How many times longer than on an idle host to wait on this host: see {@link HostLoad#factor}. */
  public double loadFactor() {
    return load.factor();
  }

  void observed(HostLoad reported) {
    load = reported;
  }

  /** How long a channel may take to show its first line: the connect timeout and 5 s, times the load factor. */
  private Duration firstLineTimeout() {
    return load.scale(connection.target().connectTimeout().plusSeconds(5));
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
    return run(lanes.leastBusy(), shellText, input, timeout);
  }

  private CommandResult run(SshConnection over, String shellText, InputStream input, Duration timeout)
      throws RemoteFailure {
    TailBuffer out = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    TailBuffer err = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    ChannelExec channel = null;
    try {
      channel = over.exec(shellText, err);
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
    RemoteProcess process = new RemoteProcess(this, label, commandLine, stderr, onLine);
    SshLanes.Lane lane = laneForProcess();
    try {
      try {
        ChannelExec channel = lane.connection.exec(shellText, stderr);
        OutputStream stdin = channel.getOutputStream(); // kept open: its EOF ends the watchdog
        InputStream stdout = channel.getInputStream();
        channel.connect(connectMillis());
        SingleChannel single = new SingleChannel(channel, stdin);
        process.attach(single);
        single.readFrom(stdout, process, "remote-" + name + "-" + label);
      } catch (JSchException | IOException e) {
        throw lost(e);
      }
      process.awaitPid(firstLineTimeout());
      processes.add(process);
      lane.add(process::isAlive);
    } finally {
      lanes.started(lane);
    }
    OptionalInt early = process.awaitExit(STARTUP_CHECK);
    if (early.isPresent() && early.getAsInt() != 0) {
      throw StartFailure.describe(name, label, command, early.getAsInt(), process.complaint(3));
    }
    LOG.debug("{}: started {} pid {}: {}", name, label, process.pid(), commandLine);
    return process;
  }

  /**
   * Starts {@code launches} with one remote command (see {@link BatchScript}); returns once every instance has its
   * PID. Unless {@code held}, their commands start at once; a held batch's wait at a barrier until
   * {@link RemoteBatch#release}. Either way {@link RemoteBatch#checkStarted} then finds those that failed at start.
   * On a failure here, what was started is stopped before the exception is thrown.
   */
  public RemoteBatch startBatch(List<Launch> launches, boolean held) throws RemoteFailure {
    List<RemoteProcess> members = new ArrayList<>();
    List<RemoteCommand> commands = new ArrayList<>();
    for (Launch l : launches) {
      members.add(new RemoteProcess(this, l.label(), l.command().render(),
          new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES), l.onLine()));
      commands.add(l.command());
    }
    BatchScript script = new BatchScript(commands, launches.stream().map(Launch::pauseOn).toList(), held);
    TailBuffer stderr = new TailBuffer(TailBuffer.DEFAULT_CAP_BYTES);
    RemoteBatch batch = null;
    SshLanes.Lane lane = laneForProcess();
    try {
      ChannelExec channel = lane.connection.exec(script.command(), stderr);
      OutputStream stdin = channel.getOutputStream(); // kept open: its EOF ends the watchdog
      InputStream stdout = channel.getInputStream();
      channel.connect(connectMillis());
      batch = new RemoteBatch(this, channel, stdin, stderr, members, commands, held);
      processes.addAll(members);
      lane.add(batch::isOpen);
      batch.readFrom(stdout);
      stdin.write(script.instanceList());
      stdin.flush();
    } catch (JSchException | IOException e) {
      if (batch != null) {
        batch.closeChannel();
      }
      throw lost(e);
    } finally {
      lanes.started(lane);
    }
    try {
      batch.awaitPids(firstLineTimeout(), load.scale(PID_STALL));
    } catch (RemoteFailure e) {
      stop(members, Duration.ofSeconds(2));
      batch.closeChannel();
      throw e;
    }
    LOG.debug("{}: started {} ({})", name, batch, load);
    return batch;
  }

  /** Every process started here, running or not. */
  public List<RemoteProcess> processes() {
    return List.copyOf(processes);
  }

  /** TERM to every running process group, KILL after {@code grace} to those still running; one kill per step. */
  public void stopAll(Duration grace) {
    closing = true; // the run's end or its Ctrl-C: no stop is tried again from here on
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

  /** Sends SIG{@code signalName} to the process groups of those of {@code which} still running here, in one command. */
  public void signal(String signalName, Collection<RemoteProcess> which) {
    List<RemoteProcess> alive = alive(which);
    if (!alive.isEmpty()) {
      signalGroups(signalName, pids(alive));
    }
  }

  /** {@code kill -s NAME -- -PID ...}; a group already gone is not an error. */
  void signalGroups(String signalName, List<Long> pids) {
    String signal = RemoteProcess.checkedSignal(signalName);
    for (int from = 0; from < pids.size(); from += MAX_KILL_ARGS) {
      List<Long> chunk = pids.subList(from, Math.min(pids.size(), from + MAX_KILL_ARGS));
      List<String> words = new ArrayList<>(List.of("kill", "-s", signal, "--"));
      chunk.forEach(p -> words.add("-" + p));
      String text = String.join(" ", words) + " 2>&1; true";
      try {
        CommandResult r = run(text, load.scale(KILL_TIMEOUT));
        if (!r.stdout().isBlank()) {
          LOG.debug("{}: {}: {}", name, String.join(" ", words), r.stdout().strip());
        }
      } catch (RemoteFailure e) {
        if (closing || Thread.currentThread().isInterrupted()) {
          // the run is being stopped (Ctrl-C): its own close ends these connections, and the watchdog of every
          // process started here kills it when its channel ends; a new connection would only delay the exit
          LOG.warn("{}: cannot send {} to {} process groups: {}", name, signal, chunk.size(), e.getMessage());
          continue;
        }
        // the connection may be wedged (an overloaded host's sshd that never answered a rekey left 112 senders
        // flooding through the next tests): once more over a connection of its own, which the host's others do
        // not share, so that closing it takes none of their channels along
        try (SshConnection fresh = new SshConnection(connection.target())) {
          run(fresh, text, null, load.scale(KILL_TIMEOUT));
          LOG.info("{}: sent {} to {} process groups over a new connection (the first failed: {})", name, signal,
              chunk.size(), e.getMessage());
        } catch (RemoteFailure again) {
          LOG.warn("{}: cannot send {} to {} process groups: {}", name, signal, chunk.size(), again.getMessage());
          if ("KILL".equals(signal) || "TERM".equals(signal)) {
            unstopped.addAll(chunk);
            unstoppedReason = again.getMessage();
          }
        }
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

  /**
   * What of {@code processes}, on whichever hosts, no TERM or KILL reached: null when every stop got through, else a
   * message per host naming them and how to stop them by hand (see {@link #unstopped(Collection)}). Asks the hosts
   * the processes were started on, so that it also works while the run is being stopped.
   */
  public static String unstoppedOf(Collection<RemoteProcess> processes) {
    List<String> messages = processes.stream().map(RemoteProcess::remoteHost).distinct()
        .map(h -> h.unstopped(processes)).filter(java.util.Objects::nonNull).toList();
    return messages.isEmpty() ? null : String.join("; ", messages);
  }

  /**
   * Of {@code which}, those whose process group no TERM or KILL reached (the host unreachable at the time): null when
   * every stop got through, else a message naming them and how to stop them by hand.
   */
  private String unstopped(Collection<RemoteProcess> which) {
    List<Long> left = which.stream().filter(p -> name.equals(p.host())).map(RemoteProcess::pid)
        .filter(unstopped::contains).distinct().sorted().toList();
    if (left.isEmpty()) {
      return null;
    }
    String groups = left.stream().map(p -> "-" + p).collect(java.util.stream.Collectors.joining(" "));
    return "host " + name + ": " + left.size() + " process group(s) could not be stopped and may still run ("
        + unstoppedReason + "); stop them on " + name + " with: kill -s KILL -- " + groups;
  }

  /** Stops this host's processes (2 s grace) and disconnects. */
  @Override
  public void close() {
    try {
      stopAll(Duration.ofSeconds(2));
    } finally {
      lanes.closeAll();
    }
  }

  @Override
  public String toString() {
    return name + " (" + address() + ")";
  }
}
