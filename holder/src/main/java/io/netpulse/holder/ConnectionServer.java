package io.netpulse.holder;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Server side of the concurrent-connections test: listens on every port of a {@link PortSet}, accepts, and
 * holds each connection (reads and discards; closes when the peer closes). One thread, one selector, no
 * per-connection buffers, so tens of thousands of connections fit a small heap.
 *
 * <p>Out of file descriptors it keeps what it holds (what the SUT is being measured on), prints a
 * {@link ClimbLine} ({@code sut_open_files}) once, and pauses accepting briefly each time it tries again:
 * what it cannot accept stays in the kernel's accept queue, and the clients see SYN timeouts beyond it.
 *
 * <p>{@link #open()} binds (the caller learns at once whether a port is taken), {@link #run()} loops on the
 * calling thread until {@link #stop()} is called from any thread.
 */
public final class ConnectionServer implements AutoCloseable {

  /** Asks for a long accept queue; the kernel caps it at net.core.somaxconn. */
  private static final int BACKLOG = 65_535;
  /** Accepts per wake-up and listener, so reads on held connections are not starved by a burst. */
  private static final int ACCEPT_BATCH = 512;
  private static final Duration PROGRESS_PERIOD = Duration.ofSeconds(1);
  /** How long accepting rests after running out of file descriptors (the listeners stay ready meanwhile). */
  private static final Duration ACCEPT_PAUSE = Duration.ofMillis(250);

  private final InetAddress bind;
  private final PortSet ports;
  private final PrintWriter out;
  private final List<ServerSocketChannel> listeners = new ArrayList<>();
  // one buffer for every read: the data is discarded, only end-of-stream matters
  private final ByteBuffer discard = ByteBuffer.allocateDirect(64 * 1024);
  private volatile Selector selector; // stop() reads it from another thread
  private volatile boolean stopRequested;
  // written by the selector thread only; volatile so stats() may read them from elsewhere
  private volatile long accepted;
  private volatile long open;
  private volatile long peakOpen;
  private volatile long acceptErrors;
  private long acceptPausedUntilNanos;
  private ClimbLine limit;

  /**
   * @param bind  local address to listen on; null for all addresses
   * @param ports the ports to listen on, one listener each
   * @param out   where progress lines go (flushed per line)
   */
  public ConnectionServer(InetAddress bind, PortSet ports, PrintWriter out) {
    this.bind = bind;
    this.ports = ports;
    this.out = out;
    Preload.limitPaths();
  }

  /** Binds every port; on any failure closes what was bound and throws naming the port. */
  public void open() {
    try {
      selector = Selector.open();
      for (int port : ports.ports()) {
        ServerSocketChannel listener = ServerSocketChannel.open();
        listeners.add(listener);
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        try {
          listener.bind(new InetSocketAddress(bind, port), BACKLOG);
        } catch (IOException e) {
          throw new ConnectionsException("connections server: cannot listen on port " + port + " of "
              + addressText() + ": " + e.getMessage());
        }
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
      }
    } catch (IOException e) {
      close();
      if (ConnectionsException.tooManyOpenFiles(e)) {
        throw ConnectionsException.tooManyOpenFiles("server", 0, e);
      }
      throw new ConnectionsException("connections server: cannot open listeners: " + e.getMessage());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Accepts and holds until {@link #stop()}; prints a progress line every second and a summary at the end. */
  public void run() {
    if (selector == null) {
      open();
    }
    out.printf(Locale.ROOT, "connections: listening ports=%s (%d) bind=%s %s%n", ports, ports.count(), addressText(),
        ProcessLimits.openFilesText());
    out.flush();
    long start = System.nanoTime();
    Ticker ticker = new Ticker(start, PROGRESS_PERIOD);
    SpareDescriptor spare = new SpareDescriptor();
    try {
      while (!stopRequested) {
        long before = System.nanoTime();
        resumeAcceptingWhenDue(before);
        long wait = ticker.millisUntilDue(before);
        if (acceptPausedUntilNanos != 0) {
          wait = Math.min(wait, Math.max(1, (acceptPausedUntilNanos - before) / 1_000_000 + 1));
        }
        selector.select(wait);
        HeldSockets.forEachReady(selector, key -> {
          if (key.isAcceptable()) {
            acceptFrom((ServerSocketChannel) key.channel());
          } else if (key.isReadable()) {
            drain(key);
          }
        });
        long now = System.nanoTime();
        if (ticker.due(now)) {
          long rate = ticker.ratePerSecond(now, accepted);
          out.printf(Locale.ROOT, "connections: accepted=%d open=%d rate=%d/s%n", accepted, open, rate);
          out.flush();
        }
      }
    } catch (IOException e) {
      throw new ConnectionsException("connections server: selector failed: " + e.getMessage());
    } finally {
      long peak = peakOpen;
      spare.close();
      close();
      out.printf(Locale.ROOT, "connections: summary accepted=%d peak_open=%d accept_errors=%d elapsed_s=%.3f%n",
          accepted, peak, acceptErrors, (System.nanoTime() - start) / 1e9);
      out.flush();
    }
  }

  private void acceptFrom(ServerSocketChannel listener) throws IOException {
    for (int i = 0; i < ACCEPT_BATCH; i++) {
      SocketChannel channel;
      try {
        channel = listener.accept();
      } catch (IOException e) {
        if (ConnectionsException.tooManyOpenFiles(e)) {
          outOfFiles(e);
          return;
        }
        throw e;
      }
      if (channel == null) {
        return;
      }
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
      accepted++;
      open++;
      if (open > peakOpen) {
        peakOpen = open;
      }
    }
  }

  /**
   * The SUT's limit for this process: keep holding, say so once, and rest the listeners (they stay readable with
   * a full accept queue, which would otherwise spin the selector).
   */
  private void outOfFiles(IOException e) {
    acceptErrors++;
    if (limit == null) {
      limit = new ClimbLine(ClimbEnd.SUT_OPEN_FILES, open, e.getMessage() + " with " + open
          + " connections held (" + ProcessLimits.openFilesText() + " for the server process); hint: "
          + (e.getMessage().contains("in system") ? "raise fs.file-max (plan 'prepare: {file_max: N}')"
              : ConnectionsException.NOFILE_HINT));
      out.println(limit.line());
      out.flush();
    }
    acceptPausedUntilNanos = System.nanoTime() + ACCEPT_PAUSE.toNanos();
    for (ServerSocketChannel l : listeners) {
      SelectionKey key = l.keyFor(selector);
      if (key != null && key.isValid()) {
        key.interestOps(0);
      }
    }
  }

  private void resumeAcceptingWhenDue(long now) {
    if (acceptPausedUntilNanos == 0 || now < acceptPausedUntilNanos) {
      return;
    }
    acceptPausedUntilNanos = 0;
    for (ServerSocketChannel l : listeners) {
      SelectionKey key = l.keyFor(selector);
      if (key != null && key.isValid()) {
        key.interestOps(SelectionKey.OP_ACCEPT);
      }
    }
  }

  /** Reads and discards; end of stream or a reset means the client let go. */
  private void drain(SelectionKey key) {
    if (HeldSockets.drainClosed(key, discard)) {
      open--;
    }
  }

  public ServerStats stats() {
    return new ServerStats(accepted, open, peakOpen, acceptErrors);
  }

  /** The ports actually listened on (after {@link #open()}). */
  public List<Integer> boundPorts() {
    List<Integer> bound = new ArrayList<>();
    for (ServerSocketChannel l : listeners) {
      if (l.isOpen() && l.socket().getLocalPort() > 0) {
        bound.add(l.socket().getLocalPort());
      }
    }
    return bound;
  }

  /** Ends {@link #run()} soon; safe from any thread (signal handlers, tests). */
  public void stop() {
    stopRequested = true;
    HeldSockets.wakeUp(selector);
  }

  /** Closes listeners and held connections. Called by {@link #run()} on exit; idempotent. */
  @Override
  public void close() {
    HeldSockets.closeRegistered(selector);
    for (ServerSocketChannel l : listeners) {
      closeQuietly(l);
    }
    open = 0;
  }

  private String addressText() {
    return bind == null ? "0.0.0.0" : bind.getHostAddress();
  }

  private static void closeQuietly(AutoCloseable c) {
    HeldSockets.closeQuietly(c);
  }

}
