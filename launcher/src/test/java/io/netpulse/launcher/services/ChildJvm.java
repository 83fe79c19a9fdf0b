package io.netpulse.launcher.services;

import io.netpulse.testbed.ChildJava;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own on this test's classpath, as an operator's service would be: its PID, its log (stdout and stderr
 * together), and signals sent to that PID. {@link #close()} stops it and whatever it started (the collector's
 * {@code sh -c sar ...}), so a failed test leaves nothing running.
 */
final class ChildJvm implements AutoCloseable {

  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final String name;
  private final Process process;
  private final Path log;
  private final long startedAtMs;

  private ChildJvm(String name, Process process, Path log, long startedAtMs) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.startedAtMs = startedAtMs;
  }

  /**
   * Starts {@code java JVM_OPTIONS -cp CLASSPATH MAIN ARGS} with its output in {@code log}.
   *
   * @param name what it is, for messages ("processor #2")
   */
  static ChildJvm start(String name, Path log, List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.addAll(ChildJava.command());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    try {
      Files.createDirectories(log.getParent());
      long t = System.currentTimeMillis();
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new ChildJvm(name, p, log, t);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  long startedAtMs() {
    return startedAtMs;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /** The log so far; bytes that are not UTF-8 are replaced, never an error. */
  String logText() {
    try {
      return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** The log's lines that contain any of {@code needles}, the last {@code max} of them, for failure messages. */
  List<String> logLinesWith(int max, String... needles) {
    List<String> hits = logText().lines().filter(l -> {
      for (String n : needles) {
        if (l.contains(n)) {
          return true;
        }
      }
      return false;
    }).toList();
    return hits.subList(Math.max(0, hits.size() - max), hits.size());
  }

  /**
   * The exceptions the log names, as "N x SomeException: message" (message cut to 200 characters), most frequent first,
   * at most {@code max}: what a failure message needs from a long log.
   */
  String exceptionSummary(int max) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\w+(?:Exception|Error)): ([^\\n]{0,200})")
        .matcher(logText());
    java.util.Map<String, Long> counts = new java.util.LinkedHashMap<>();
    while (m.find()) {
      counts.merge(m.group(1) + ": " + m.group(2), 1L, Long::sum);
    }
    if (counts.isEmpty()) {
      return "no exception in " + log;
    }
    return counts.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).limit(max)
        .map(e -> e.getValue() + " x " + e.getKey()).collect(java.util.stream.Collectors.joining("\n    ",
            "exceptions in " + log + ":\n    ", ""));
  }

  /** Waits until the log has a line containing {@code text}; fails at once, with the log's tail, if the JVM exits. */
  void awaitLog(String text, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (logText().contains(text)) {
        return;
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " (pid " + pid() + ") exited with " + process.exitValue() + " before printing '"
            + text + "'; log " + log + " ends:\n" + tail(40));
      }
      sleep(200);
    }
    throw new AssertionError(name + " (pid " + pid() + ") did not print '" + text + "' within " + timeout.toSeconds()
        + " s; log " + log + " ends:\n" + tail(40));
  }

  String tail(int lines) {
    List<String> all = logText().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** SIGTERM, as {@code docker stop} or systemd sends: the JVM runs its shutdown hooks. */
  void sigterm() {
    Signals.send(pid(), Signals.TERM);
  }

  /** SIGKILL: the JVM vanishes mid-work, no hook runs (a crash, the OOM killer, a power cut of the process). */
  void sigkill() {
    Signals.send(pid(), Signals.KILL);
  }

  boolean awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Stops the JVM (SIGTERM, then SIGKILL after the grace) and the processes it had started, which the kernel would
   * otherwise hand to init still running.
   */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    if (process.isAlive()) {
      sigterm();
      if (!awaitExit(STOP_GRACE)) {
        sigkill();
        awaitExit(STOP_GRACE);
      }
    }
    killLeftovers(descendants);
  }

  /** SIGKILL now, then the processes it had started once they had the chance to end by themselves. */
  void killWithLeftovers(Duration leftoverGrace) {
    List<ProcessHandle> descendants = process.descendants().toList();
    sigkill();
    awaitExit(STOP_GRACE);
    long deadline = System.nanoTime() + leftoverGrace.toNanos();
    while (System.nanoTime() < deadline && descendants.stream().anyMatch(ProcessHandle::isAlive)) {
      sleep(100);
    }
    killLeftovers(descendants);
  }

  private static void killLeftovers(List<ProcessHandle> descendants) {
    for (ProcessHandle h : descendants) {
      if (h.isAlive()) {
        Signals.send(h.pid(), Signals.KILL);
      }
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + pid() + ", log " + log + ")";
  }
}
