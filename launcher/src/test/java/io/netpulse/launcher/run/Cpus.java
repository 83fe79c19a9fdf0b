package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testbed.netns.NetHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU affinity (taskset) of what a test started, and nothing else: the processes in a test host's namespace (its
 * sshd, whose sessions and tools inherit the affinity) and this JVM (the pipeline netpulse runs in-process).
 */
final class Cpus {

  private Cpus() {}

  /** CPUs this JVM may run on now: fewer than the machine's while it is pinned ({@link #pinThisJvm}). */
  static int count() {
    return Runtime.getRuntime().availableProcessors();
  }

  /**
   * Every CPU online (taskset list, e.g. "0-1"), whatever this JVM is pinned to: what to unpin it to. Not
   * "0-" + (count() - 1): while pinned to one CPU that is "0-0", and the fork stayed pinned for every later class
   * (CpuFlagsEndToEndTest then found one CPU and skipped itself).
   */
  static String online() throws IOException {
    return Files.readString(Path.of("/sys/devices/system/cpu/online")).strip();
  }

  /** Pins every process now in {@code host}'s namespace, all threads, to {@code cpus} (taskset list, e.g. "1"). */
  static void pinNamespace(NetHost host, String cpus) throws Exception {
    List<String> pids = pidsIn(host);
    assertThat(pids).as("processes in " + host.name()).isNotEmpty();
    for (String pid : pids) {
      taskset(cpus, pid);
    }
  }

  /** Pins this JVM, all its threads (and those it starts later), to {@code cpus}. */
  static void pinThisJvm(String cpus) throws Exception {
    taskset(cpus, String.valueOf(ProcessHandle.current().pid()));
  }

  /** {@code command} run on {@code cpus} (taskset execs it: same PID). */
  static List<String> on(String cpus, List<String> command) {
    List<String> c = new ArrayList<>(List.of("taskset", "-c", cpus));
    c.addAll(command);
    return c;
  }

  /** CPU seconds this JVM has used (user + system), from /proc/self/stat. */
  static double jvmCpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields 14 and 15 of stat(5), counted from the state (field 3) here
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
  }

  private static void taskset(String cpus, String pid) throws Exception {
    Process p = new ProcessBuilder("taskset", "-a", "-c", "-p", cpus, pid).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("taskset of " + pid + ": " + out).isZero();
  }

  private static List<String> pidsIn(NetHost host) throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "pids", host.namespace()).redirectErrorStream(true).start();
    List<String> pids = new ArrayList<>();
    for (String pid : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\\s+")) {
      if (!pid.isBlank()) {
        pids.add(pid);
      }
    }
    p.waitFor();
    return pids;
  }
}
