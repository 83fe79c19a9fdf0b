package io.netpulse.launcher.services;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * POSIX signals to one PID through {@code kill(1)}: the exact signal an operator sends, which
 * {@link Process#destroy()} only implies.
 */
final class Signals {

  static final String TERM = "TERM";
  static final String KILL = "KILL";

  private Signals() {}

  /** Sends {@code signal} to {@code pid}; a process that has already gone is not an error. */
  static void send(long pid, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new IllegalStateException("kill -s " + signal + " " + pid + " did not return");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill -s " + signal + " " + pid + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted sending " + signal + " to " + pid, e);
    }
  }
}
