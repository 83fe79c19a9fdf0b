package io.netpulse.launcher.remote;

import com.jcraft.jsch.ChannelExec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exec channel of one process started by {@link RemoteHost#start}: its first stdout line is the wrapper's PID,
 * the rest the command's output; one daemon thread reads it. The channel's stdin stays open: its EOF ends the remote
 * watchdog.
 */
final class SingleChannel implements RemoteProcess.Transport {

  private static final Logger LOG = LoggerFactory.getLogger(SingleChannel.class);
  /** How long after stdout's EOF to wait for the exit status that OpenSSH sends alongside. */
  static final long CLOSE_WAIT_MILLIS = 5_000;

  private final ChannelExec channel;
  private final OutputStream stdin;

  SingleChannel(ChannelExec channel, OutputStream stdin) {
    this.channel = channel;
    this.stdin = stdin;
  }

  boolean isOpen() {
    return !channel.isClosed();
  }

  /** Starts the stdout reader for {@code process}. */
  void readFrom(InputStream out, RemoteProcess process, String threadName) {
    Thread reader = new Thread(() -> read(out, process), threadName);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(InputStream out, RemoteProcess process) {
    boolean pidSeen = false;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!pidSeen) {
          if (line.startsWith(RemoteProcess.PID_MARKER)) {
            pidSeen = true;
            process.started(Long.parseLong(line.substring(RemoteProcess.PID_MARKER.length()).strip()));
          }
          continue; // anything a login script printed before our marker is not the command's output
        }
        process.line(line);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("{}: stdout ended: {}", process, e.toString());
    } finally {
      awaitClosed(channel);
      // OpenSSH sends exit-signal instead of exit-status for a killed process; jsch then reports -1
      int status = channel.getExitStatus();
      close();
      process.ended(status);
    }
  }

  static void awaitClosed(ChannelExec channel) {
    long deadline = System.currentTimeMillis() + CLOSE_WAIT_MILLIS;
    while (!channel.isClosed() && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    try {
      stdin.close(); // EOF on the remote stdin ends the watchdog too
    } catch (IOException ignored) {
      // the channel is gone already
    }
    channel.disconnect();
  }
}
