package io.netpulse.collector;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.JSchException;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a command on a remote host through an SSH exec channel and sends each line of its stdout to a sink. When the
 * command exits it is started again (a sampler that dies); when the SSH session is lost the connection is made again
 * with backoff, and the gap (time from the last line before the cut to the first after) is logged and counted.
 */
public final class SshLineSource implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SshLineSource.class);
  private static final int STDERR_KEPT_BYTES = 2048;

  private final SshConnection connection;
  private final String command;
  private final LineEmitter emitter;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Duration maxBackoff;
  private volatile ChannelExec channel;
  private Thread worker;
  private SourceMBean mbean;

  /**
   * @param connection the host's shared connection
   * @param source     output format of the command, e.g. {@code sar-dev}
   * @param run        run id, or null for monitoring
   * @param command    a shell command line run by the remote login shell
   */
  public SshLineSource(SshConnection connection, String source, String run, String command, LineSink sink,
      CollectorMetrics metrics) {
    this(connection, source, run, command, sink, metrics, Duration.ofSeconds(30));
  }

  public SshLineSource(SshConnection connection, String source, String run, String command, LineSink sink,
      CollectorMetrics metrics, Duration maxBackoff) {
    this(connection, source, run, command, null, sink, metrics, maxBackoff);
  }

  /** @param sequences numbering that goes on across collector restarts, or null for numbers from 0 */
  public SshLineSource(SshConnection connection, String source, String run, String command, SequenceStore sequences,
      LineSink sink, CollectorMetrics metrics, Duration maxBackoff) {
    this.connection = connection;
    this.command = command;
    this.maxBackoff = maxBackoff;
    this.emitter = new LineEmitter(connection.target().name(), source, run, sequences, sink, metrics);
  }

  public SshLineSource start() {
    mbean = emitter.registerMBean();
    worker = new Thread(this::loop, "collector-ssh-" + emitter.source() + "-" + emitter.host());
    worker.setDaemon(true);
    worker.start();
    return this;
  }

  public long linesRead() {
    return emitter.emitted();
  }

  private void loop() {
    Backoff backoff = new Backoff(Duration.ofMillis(500), maxBackoff);
    long lastLineMillis = 0;
    long lostAtMillis = 0; // when the session was found lost, 0 while connected
    boolean everConnected = false;
    while (closed.getCount() > 0) {
      TailBuffer stderr = new TailBuffer();
      String failure;
      try {
        ChannelExec ch = connection.exec(command, stderr);
        channel = ch;
        BufferedReader out = new BufferedReader(new InputStreamReader(ch.getInputStream(), StandardCharsets.UTF_8));
        ch.connect((int) connection.target().connectTimeout().toMillis());
        if (lostAtMillis != 0) {
          LOG.info("{}/{}: SSH session to {} back after {} ms of trying", emitter.host(), emitter.source(),
              connection.target(), System.currentTimeMillis() - lostAtMillis);
        }
        everConnected = true;
        String line;
        boolean firstAfterCut = lostAtMillis != 0;
        while ((line = out.readLine()) != null) {
          long now = System.currentTimeMillis();
          if (firstAfterCut) {
            long gap = reportGap(lastLineMillis == 0 ? lostAtMillis : lastLineMillis, now);
            firstAfterCut = false;
            emitter.emitAfterGap(line, gap); // the event states the gap: downstream sees time without lines
          } else {
            emitter.emit(line);
          }
          lostAtMillis = 0;
          lastLineMillis = now;
          backoff.reset();
        }
        if (closed.getCount() == 0) {
          return; // close() cut the channel: nothing to diagnose
        }
        awaitExitStatus(ch);
        if (ch.getExitStatus() == -1) {
          awaitSessionDown(); // no exit status: most likely the session went; jsch marks it down a moment later
        }
        failure = "exited with status " + ch.getExitStatus() + stderr.describe();
      } catch (JSchException | IOException e) {
        failure = e.getMessage() + stderr.describe();
      } finally {
        ChannelExec ch = channel;
        if (ch != null) {
          ch.disconnect();
        }
      }
      if (closed.getCount() == 0) {
        return;
      }
      boolean sessionLost = !connection.isConnected();
      if (sessionLost && lostAtMillis == 0) {
        lostAtMillis = System.currentTimeMillis();
        LOG.warn("{}/{}: SSH session to {} lost{}: {}; reconnecting with backoff", emitter.host(), emitter.source(),
            connection.target(), everConnected ? " after seq " + emitter.lastSeq() : "", failure);
      } else if (!sessionLost) {
        emitter.counters().restarted();
        LOG.warn("{}/{}: remote command on {} {}; starting it again", emitter.host(), emitter.source(),
            connection.target(), failure);
      }
      try {
        if (closed.await(backoff.next(), TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private long reportGap(long fromMillis, long toMillis) {
    long gap = toMillis - fromMillis;
    emitter.counters().gap(gap);
    LOG.warn("{}/{}: gap of {} ms without lines from {} (SSH reconnection); seq goes on at {}", emitter.host(),
        emitter.source(), gap, connection.target(), emitter.nextSeq());
    return gap;
  }

  private static void awaitExitStatus(ChannelExec ch) {
    // the exit status arrives just after EOF on stdout
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (!ch.isClosed() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void awaitSessionDown() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    while (connection.isConnected() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    closed.countDown();
    ChannelExec ch = channel;
    if (ch != null) {
      ch.disconnect(); // the remote sampler dies of SIGPIPE at its next write
    }
    if (worker != null) {
      try {
        worker.join(3000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (mbean != null) {
      mbean.close();
    }
  }

  /** The last bytes of the remote stderr, for error messages. */
  private static final class TailBuffer extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      bytes.write(b, off, len);
      if (bytes.size() > 2 * STDERR_KEPT_BYTES) {
        byte[] all = bytes.toByteArray();
        bytes.reset();
        bytes.write(all, all.length - STDERR_KEPT_BYTES, STDERR_KEPT_BYTES);
      }
    }

    synchronized String describe() {
      String text = bytes.toString(StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? "" : " (stderr: " + text.lines().reduce((a, b) -> b).orElse("") + ")";
    }
  }
}
