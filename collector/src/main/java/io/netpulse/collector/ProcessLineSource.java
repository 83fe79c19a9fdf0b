package io.netpulse.collector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a sampler or tool as a local process (no shell: the command is an argument list) and sends each line of its
 * stdout, numbered per source (from 0, or going on from the previous collector start with a {@link SequenceStore}), to
 * a sink. With {@link #restartOnExit(boolean)} a sampler that dies is started
 * again with backoff, and the sequence goes on.
 */
public final class ProcessLineSource implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessLineSource.class);
  private static final Duration STABLE_RUN = Duration.ofSeconds(30); // ran this long: restart without delay growth

  private final String host;
  private final String source;
  private final List<String> command;
  private final Map<String, String> environment;
  private final LineEmitter emitter;
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile boolean restartOnExit;
  private volatile Process process;
  private Thread supervisor;
  private SourceMBean mbean;

  /**
   * @param host        host the lines describe (the record key)
   * @param source      parser format of the output, e.g. {@code sar-dev}
   * @param run         run id, or null for monitoring
   * @param command     program and arguments
   * @param environment variables added to the inherited environment (e.g. LC_ALL=C, TZ=UTC)
   */
  public ProcessLineSource(String host, String source, String run, List<String> command,
      Map<String, String> environment, LineSink sink) {
    this(host, source, run, command, environment, sink, new CollectorMetrics());
  }

  public ProcessLineSource(String host, String source, String run, List<String> command,
      Map<String, String> environment, LineSink sink, CollectorMetrics metrics) {
    this(host, source, run, command, environment, null, sink, metrics);
  }

  /** @param sequences numbering that goes on across collector restarts, or null for numbers from 0 */
  public ProcessLineSource(String host, String source, String run, List<String> command,
      Map<String, String> environment, SequenceStore sequences, LineSink sink, CollectorMetrics metrics) {
    this.host = host;
    this.source = source;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.emitter = new LineEmitter(host, source, run, sequences, sink, metrics);
  }

  /** Start the command again when it exits (samplers); off by default (tools that run once). */
  public ProcessLineSource restartOnExit(boolean restart) {
    this.restartOnExit = restart;
    return this;
  }

  /** Starts the process; throws when it cannot be started at all (program missing). */
  public ProcessLineSource start() throws IOException {
    process = launch();
    mbean = emitter.registerMBean();
    supervisor = new Thread(this::supervise, "collector-" + source + "-" + host);
    supervisor.setDaemon(true);
    supervisor.start();
    return this;
  }

  private Process launch() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(environment);
    return pb.start();
  }

  private void supervise() {
    Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    while (true) {
      long startedNanos = System.nanoTime();
      pump(process);
      int exit = waitFor(process);
      if (closed.getCount() == 0 || !restartOnExit) {
        return;
      }
      if (System.nanoTime() - startedNanos > STABLE_RUN.toNanos()) {
        backoff.reset();
      }
      long delay = backoff.next();
      LOG.warn("{} on {} exited with status {}; starting it again in {} ms: {}", source, host, exit, delay,
          String.join(" ", command));
      try {
        if (closed.await(delay, TimeUnit.MILLISECONDS)) {
          return;
        }
        process = launch();
        if (closed.getCount() == 0) { // close() ran while we started it
          stopTree(process.toHandle(), STOP_GRACE);
          return;
        }
        emitter.counters().restarted();
      } catch (IOException e) {
        LOG.warn("{} on {}: cannot start {}: {}", source, host, command.get(0), e.getMessage());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void pump(Process p) {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        emitter.emit(line);
      }
    } catch (IOException e) {
      if (p.isAlive()) {
        LOG.warn("{} on {}: reading output failed: {}", source, host, e.getMessage());
      }
    }
  }

  private static int waitFor(Process p) {
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Lines read so far. */
  public long linesRead() {
    return emitter.emitted();
  }

  /** PID of the current process (a new one after a restart). */
  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    closed.countDown();
    Process p = process;
    if (p == null) {
      return;
    }
    try {
      stopTree(p.toHandle(), STOP_GRACE);
      if (supervisor != null) {
        supervisor.join(2000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      mbean.close();
    }
  }

  /** How long a sampler and what it started get to exit after SIGTERM, and again after SIGKILL. */
  static final Duration STOP_GRACE = Duration.ofSeconds(3);

  /**
   * Stops {@code root} and its descendants and returns once all have exited, or {@code grace} after SIGKILL. The
   * descendants are listed before any signal and awaited too: {@code sar} runs {@code sadc} as its child, and once sar
   * has exited sadc is re-parented and no longer among its descendants, so waiting for sar alone returned while sadc
   * could still run (LocalSourcesTest: a child that takes a second over SIGTERM was alive after close()). A descendant
   * counts as exited once reaped, which its new parent, init, does (on the test machine every 1.5-2 s).
   */
  static void stopTree(ProcessHandle root, Duration grace) throws InterruptedException {
    List<ProcessHandle> all = new ArrayList<>();
    all.add(root);
    root.descendants().forEach(all::add);
    all.forEach(ProcessHandle::destroy);
    List<ProcessHandle> left = awaitExit(all, grace);
    left.forEach(ProcessHandle::destroyForcibly);
    awaitExit(left, grace);
  }

  /** Waits until each has exited, at most {@code timeout} in all; returns those still running. */
  private static List<ProcessHandle> awaitExit(List<ProcessHandle> processes, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (ProcessHandle p : processes) {
      try {
        p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        break; // out of time: the rest are only checked
      }
    }
    return processes.stream().filter(ProcessHandle::isAlive).toList();
  }
}
