package io.netpulse.launcher.connections;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;

/**
 * Client side of the concurrent-connections test: opens {@link ClientSettings#target()} TCP connections to the
 * server's ports round-robin (and from the source addresses round-robin), at most
 * {@link ClientSettings#maxInFlight()} connects at a time, then holds them for {@link ClientSettings#hold()} or
 * until {@link #stop()}. One thread and one selector; a held connection costs a socket and a selection key.
 *
 * <p>Failed connects are counted and retried; after {@link ClientSettings#maxFailures()} the client stops opening
 * and holds what it has (the server's limit is often what is being measured). With nothing opened at all that is
 * an error. Connections are closed with a reset (SO_LINGER 0): an orderly close would leave one TIME_WAIT per
 * connection on this side, tying up the local ports the next run needs.
 */
public final class ConnectionClient {

  private static final Duration PROGRESS_PERIOD = Duration.ofSeconds(1);
  /** Local ports tried per connect when binding to a source address before counting a failure. */
  private static final int BIND_ATTEMPTS = 64;

  private final ClientSettings settings;
  private final PrintWriter out;
  private final PrintWriter err;
  private final int[] serverPorts;
  private final LocalPorts localPorts;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private final ByteBuffer discard = ByteBuffer.allocateDirect(16 * 1024);
  private Selector selector;
  private volatile boolean stopRequested;
  private long attempt; // round-robin position over (source, server port)
  private boolean opening = true;
  private String lastFailure;
  // written by the selector thread only; volatile so stats() may read them from elsewhere
  private volatile long open;
  private volatile long opened;
  private volatile long failed;
  private volatile int inFlight;
  private volatile long closedByPeer;
  private volatile long peakOpen;

  /** A connect in progress; they finish or time out in start order, so a FIFO finds the expired ones. */
  private static final class Pending {
    final SocketChannel channel;
    final InetSocketAddress remote;
    final long deadlineNanos;
    boolean finished;

    Pending(SocketChannel channel, InetSocketAddress remote, long deadlineNanos) {
      this.channel = channel;
      this.remote = remote;
      this.deadlineNanos = deadlineNanos;
    }
  }

  /**
   * @param settings what to open and for how long
   * @param out      progress lines and the summary (flushed per line)
   * @param err      warnings (giving up on opening more)
   */
  public ConnectionClient(ClientSettings settings, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.out = out;
    this.err = err;
    this.serverPorts = settings.ports().ports();
    this.localPorts = settings.sources().isEmpty() ? null
        : LocalPorts.fromKernel(settings.sources().size() * serverPorts.length);
  }

  /**
   * Opens, holds, closes. Returns normally after the hold or a {@link #stop()}; throws
   * {@link ConnectionsException} when nothing could be opened at all or the process runs out of file descriptors.
   */
  public void run() {
    long start = System.nanoTime();
    long openingEnded = 0;
    Ticker ticker = new Ticker(start, PROGRESS_PERIOD);
    SpareDescriptor spare = new SpareDescriptor();
    try {
      selector = Selector.open();
      if (stopRequested) {
        return;
      }
      while (!stopRequested) {
        long now = System.nanoTime();
        if (opening) {
          startConnects(now);
          expire(now);
          if (open >= settings.target() || (failed > settings.maxFailures() && inFlight == 0)) {
            opening = false;
            openingEnded = now;
            endOpening();
          }
        } else if (settings.hold() != null && now - openingEnded >= settings.hold().toNanos()) {
          break;
        }
        selector.select(selectMillis(now, ticker, openingEnded));
        handleReady();
        now = System.nanoTime();
        if (ticker.due(now)) {
          long rate = ticker.ratePerSecond(now, opened);
          out.printf(Locale.ROOT, "connections: open=%d target=%d failed=%d in_flight=%d rate=%d/s%n",
              open, settings.target(), failed, inFlight, rate);
          out.flush();
        }
      }
    } catch (IOException e) {
      if (ConnectionsException.tooManyOpenFiles(e)) {
        spare.close();
        throw ConnectionsException.tooManyOpenFiles("client", open, e);
      }
      throw new ConnectionsException("connections client: " + e.getMessage());
    } finally {
      long end = System.nanoTime();
      long peak = peakOpen;
      spare.close();
      closeAll();
      double openingSeconds = ((openingEnded == 0 ? end : openingEnded) - start) / 1e9;
      out.printf(Locale.ROOT, "connections: summary opened=%d peak_open=%d failed=%d closed_by_peer=%d "
              + "opening_s=%.3f mean_rate=%d/s elapsed_s=%.3f%n", opened, peak, failed, closedByPeer, openingSeconds,
          Math.round(opened / Math.max(1e-9, openingSeconds)), (end - start) / 1e9);
      out.flush();
    }
  }

  private void endOpening() {
    if (open >= settings.target()) {
      return;
    }
    if (opened == 0) {
      throw new ConnectionsException("connections client: cannot connect to " + settings.server().getHostAddress()
          + " ports " + settings.ports() + ": " + failed + " connects failed, last " + lastFailure);
    }
    err.printf(Locale.ROOT, "connections: stopped opening after %d failed connects (last %s); holding %d%n",
        failed, lastFailure, open);
    err.flush();
  }

  private long selectMillis(long now, Ticker ticker, long openingEnded) {
    long millis = ticker.millisUntilDue(now);
    if (opening && !pending.isEmpty()) {
      millis = Math.min(millis, Math.max(1, (pending.peekFirst().deadlineNanos - now) / 1_000_000 + 1));
    }
    if (!opening && settings.hold() != null) {
      millis = Math.min(millis, Math.max(1, (openingEnded + settings.hold().toNanos() - now) / 1_000_000 + 1));
    }
    return millis;
  }

  private void startConnects(long now) throws IOException {
    while (inFlight < settings.maxInFlight() && open + inFlight < settings.target()
        && failed <= settings.maxFailures() && !stopRequested) {
      long position = attempt++;
      int portIndex = (int) (position % serverPorts.length);
      InetSocketAddress remote = new InetSocketAddress(settings.server(), serverPorts[portIndex]);
      SocketChannel channel = SocketChannel.open(); // EMFILE here ends the run: see run()
      try {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        if (localPorts != null) {
          int sourceIndex = (int) ((position / serverPorts.length) % settings.sources().size());
          bindSource(channel, settings.sources().get(sourceIndex), sourceIndex * serverPorts.length + portIndex);
        }
        Pending p = new Pending(channel, remote, now + settings.connectTimeout().toNanos());
        if (channel.connect(remote)) {
          p.finished = true;
          channel.register(selector, SelectionKey.OP_READ);
          established();
        } else {
          channel.register(selector, SelectionKey.OP_CONNECT, p);
          pending.addLast(p);
          inFlight++;
        }
      } catch (IOException e) {
        closeQuietly(channel);
        if (ConnectionsException.tooManyOpenFiles(e)) {
          throw e;
        }
        failure(remote, e);
      }
    }
  }

  private void bindSource(SocketChannel channel, InetAddress source, int pair) throws IOException {
    channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
    for (int i = 0; i < BIND_ATTEMPTS; i++) {
      int port = localPorts.next(pair);
      if (port < 0) {
        throw new BindException("no local port left on " + source.getHostAddress() + " (" + localPorts.size()
            + " ports in the ephemeral range used): add --source addresses or server ports");
      }
      try {
        channel.bind(new InetSocketAddress(source, port));
        return;
      } catch (BindException inUse) {
        // another program holds this port without SO_REUSEADDR: take the next
      }
    }
    throw new BindException("no free local port on " + source.getHostAddress() + " after " + BIND_ATTEMPTS
        + " tries");
  }

  private void handleReady() {
    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
    while (keys.hasNext()) {
      SelectionKey key = keys.next();
      keys.remove();
      if (!key.isValid()) {
        continue;
      }
      if (key.isConnectable()) {
        Pending p = (Pending) key.attachment();
        p.finished = true;
        inFlight--;
        try {
          if (p.channel.finishConnect()) {
            key.attach(null);
            key.interestOps(SelectionKey.OP_READ);
            established();
          }
        } catch (IOException e) {
          key.cancel();
          closeQuietly(p.channel);
          failure(p.remote, e);
        }
      } else if (key.isReadable()) {
        drain(key);
      }
    }
  }

  private void established() {
    opened++;
    open++;
    if (open > peakOpen) {
      peakOpen = open;
    }
  }

  /** Connects that outlived the timeout are abandoned (a dropped SYN would otherwise retry for minutes). */
  private void expire(long now) {
    while (!pending.isEmpty()) {
      Pending head = pending.peekFirst();
      if (head.finished) {
        pending.removeFirst();
      } else if (now >= head.deadlineNanos) {
        pending.removeFirst();
        head.finished = true;
        inFlight--;
        closeQuietly(head.channel);
        failure(head.remote, new IOException("connect timed out after " + settings.connectTimeout().toMillis()
            + " ms"));
      } else {
        return;
      }
    }
  }

  /** Data is not expected; end of stream or a reset means the server let go of this one. */
  private void drain(SelectionKey key) {
    if (HeldSockets.drainClosed(key, discard)) {
      open--;
      closedByPeer++;
    }
  }

  private void failure(InetSocketAddress remote, IOException e) {
    failed++;
    lastFailure = remote.getAddress().getHostAddress() + ":" + remote.getPort() + ": " + e.getMessage();
  }

  public ClientStats stats() {
    return new ClientStats(open, settings.target(), opened, failed, inFlight, closedByPeer, peakOpen);
  }

  /** Ends {@link #run()} soon, which then closes every connection; safe from any thread. */
  public void stop() {
    stopRequested = true;
    Selector s = selector;
    if (s != null) {
      s.wakeup();
    }
  }

  private void closeAll() {
    if (selector != null) {
      for (SelectionKey key : selector.keys()) {
        closeQuietly(key.channel());
      }
      closeQuietly(selector);
    }
    open = 0;
    inFlight = 0;
  }

  private static void closeQuietly(AutoCloseable c) {
    HeldSockets.closeQuietly(c);
  }

}
