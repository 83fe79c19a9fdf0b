package io.netpulse.collector;

import com.jcraft.jsch.ChannelDirectTCPIP;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.Proxy;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SocketFactory;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The TCP stream of the next hop's SSH session, as a direct-tcpip channel of the jump host's session: what OpenSSH's
 * ProxyJump does (no port opened on either machine, nothing run on the jump host).
 */
final class JumpChannel implements Proxy {

  /** Room for the bytes the tunnelled session has not read yet; a full pipe holds up the jump host's session. */
  private static final int PIPE_BYTES = 256 * 1024;

  private final Session via;
  private ChannelDirectTCPIP channel;
  private InputStream in;
  private OutputStream out;

  JumpChannel(Session via) {
    this.via = via;
  }

  @Override
  public void connect(SocketFactory ignored, String host, int port, int timeout) throws Exception {
    channel = (ChannelDirectTCPIP) via.openChannel("direct-tcpip");
    channel.setHost(host);
    channel.setPort(port);
    // the streams must exist before the channel opens, or the first bytes (the server's banner) are lost; not
    // channel.getInputStream(): see ChannelPipe
    ChannelPipe pipe = new ChannelPipe(PIPE_BYTES);
    channel.setOutputStream(pipe.sink(), false); // closed with the channel: the session then reads end of stream
    in = pipe.source();
    out = channel.getOutputStream();
    try {
      channel.connect(timeout);
    } catch (JSchException e) {
      throw new JSchException("jump host " + via.getHost() + " could not open a connection to " + host + ":" + port
          + " (" + e.getMessage() + "): check that address and port as seen from the jump host", e);
    }
  }

  @Override
  public InputStream getInputStream() {
    return in;
  }

  @Override
  public OutputStream getOutputStream() {
    return out;
  }

  @Override
  public Socket getSocket() {
    return null; // no socket of its own: jsch then sets no read timeout, hence the Watchdog
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.disconnect();
    }
  }

  /**
   * Ends a proxied session's connect after the connect timeout: jsch reads the handshake of a session without a socket
   * with no timeout, so a hop whose sshd accepts but never answers would hang the connect for good.
   */
  static final class Watchdog {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ssh-jump-watchdog");
      t.setDaemon(true);
      return t;
    });

    /** Set once: by the timer (fired) or by {@link #finish} (in time), whichever comes first. */
    private final AtomicBoolean decided = new AtomicBoolean();
    private volatile boolean fired;
    private ScheduledFuture<?> task;

    static Watchdog start(Session session, int timeoutMillis) {
      Watchdog w = new Watchdog();
      w.task = TIMER.schedule(() -> {
        if (w.decided.compareAndSet(false, true)) {
          w.fired = true;
          session.disconnect();
        }
      }, Math.max(1, timeoutMillis), TimeUnit.MILLISECONDS);
      return w;
    }

    /** Whether the timer ended the connect (or is about to). */
    boolean fired() {
      return fired;
    }

    /** Stops the timer; false when it fired first (the session is being disconnected). */
    boolean finish() {
      task.cancel(false);
      if (decided.compareAndSet(false, true)) {
        return true;
      }
      fired = true;
      return false;
    }
  }
}
