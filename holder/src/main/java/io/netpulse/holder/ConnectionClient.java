package io.netpulse.holder;

import io.netpulse.holder.ConnectFailures.Kind;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Client side of the concurrent-connections test. It climbs: opens TCP connections to the server's ports
 * round-robin (and from the source addresses round-robin), at most {@link ClientSettings#maxInFlight()} connects at
 * a time, until something ends the climb, then holds what it has for {@link ClientSettings#hold()}, until
 * {@link ClientSettings#duration()} is over, or until {@link #stop()}. One thread and one selector; a held
 * connection costs a socket and a selection key.
 *
 * <p>What ended the climb is printed at once as a {@link ClimbLine}, so that a user (and the launcher) can tell the
 * SUT's limit from the client's: the optional cap; every (source, server port) pair out of local ports; this
 * process out of file descriptors; {@link ClientSettings#maxFailures()} failed connects in a row (refused, SYN
 * timeouts, other errors); no new peak for {@link ClientSettings#stall()}; or time up while still rising. Nothing
 * opened at all is an error. Connections are closed with a reset (SO_LINGER 0): an orderly close would leave one
 * TIME_WAIT per connection on this side, tying up the local ports the next run needs.
 */
public final class ConnectionClient {

  private static final Duration PROGRESS_PERIOD = Duration.ofSeconds(1);

  private final ClientSettings settings;
  private final PrintWriter out;
  private final int[] serverPorts;
  private final PortPairs pairs;
  private final LocalPorts range;
  /** Binds to the source addresses; null when the kernel picks address and port at connect. */
  private final SourceBinder binder;
  private final ConnectFailures failures = new ConnectFailures();
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private final ByteBuffer discard = ByteBuffer.allocateDirect(16 * 1024);
  private volatile Selector selector; // stop() reads it from another thread
  private volatile boolean stopRequested;
  private volatile ClimbLine climb;
  private long climbEndedNanos;
  private String outOfFiles;
  private long lastPeakNanos;
  private long closedAtLastPeak;
  // written by the selector thread only; volatile so stats() may read them from elsewhere
  private volatile long open;
  private volatile long opened;
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
   * @param out      the start line, progress lines, the climb line and the summary (flushed per line)
   */
  public ConnectionClient(ClientSettings settings, PrintWriter out) {
    this(settings, out, LocalPorts.fromKernel(1));
  }

  /** With {@code range} standing for the kernel's ephemeral range (tests: a small one, without a namespace). */
  ConnectionClient(ClientSettings settings, PrintWriter out, LocalPorts range) {
    this.settings = settings;
    this.out = out;
    this.serverPorts = settings.ports().ports();
    this.pairs = new PortPairs(settings.sources().size(), serverPorts.length);
    this.range = range;
    this.binder = settings.sources().isEmpty() ? null : new SourceBinder(settings.sources(), pairs, range);
    Preload.limitPaths();
    detail(ClimbEnd.STALLED); // its switch loads a class of its own, which out of descriptors would fail
  }

  /**
   * Climbs, holds, closes. Returns normally after the hold, the duration or a {@link #stop()}; throws
   * {@link ConnectionsException} when nothing could be opened at all or a source address is not this host's.
   */
  public void run() {
    long start = System.nanoTime();
    lastPeakNanos = start;
    Ticker ticker = new Ticker(start, PROGRESS_PERIOD);
    SpareDescriptor spare = new SpareDescriptor();
    try {
      if (binder != null) {
        binder.check();
      }
      selector = Selector.open();
      println(startLine());
      while (!stopRequested) {
        long now = System.nanoTime();
        if (climb == null) {
          startConnects(now);
          expire(now);
          ClimbEnd end = endOfClimb(now);
          if (end != null) {
            endClimb(end, now);
          }
        } else if (settings.hold() != null && now - climbEndedNanos >= settings.hold().toNanos()) {
          break;
        }
        if (settings.duration() != null && now - start >= settings.duration().toNanos()) {
          break;
        }
        selector.select(selectMillis(now, ticker, start));
        handleReady();
        now = System.nanoTime();
        if (ticker.due(now)) {
          long rate = ticker.ratePerSecond(now, opened);
          println(String.format(Locale.ROOT, "connections: open=%d cap=%s failed=%d in_flight=%d rate=%d/s",
              open, capText(), failures.all(), inFlight, rate));
        }
      }
      if (climb == null) {
        endClimb(ClimbEnd.TIME_UP, System.nanoTime());
      }
    } catch (IOException e) {
      throw new ConnectionsException("connections client: " + e.getMessage());
    } finally {
      // before closing: closing a million sockets takes a while, and a stop may not wait for it
      summary(start);
      spare.close();
      closeAll();
    }
  }

  /** What ends the climb now, or null while it goes on. */
  private ClimbEnd endOfClimb(long now) {
    if (settings.cap() != null && open >= settings.cap()) {
      return ClimbEnd.CAP_REACHED;
    }
    if (inFlight == 0) { // the connects under way may still succeed
      if (outOfFiles != null) {
        return ClimbEnd.CLIENT_OPEN_FILES;
      }
      if (pairs.allExhausted()) {
        return ClimbEnd.CLIENT_PORTS;
      }
      if (failures.streak() >= settings.maxFailures()) {
        return failures.streakEnd();
      }
    }
    if (now - lastPeakNanos >= settings.stall().toNanos()) {
      return closedByPeer > closedAtLastPeak ? ClimbEnd.CLOSED_BY_SUT : ClimbEnd.STALLED;
    }
    return null;
  }

  private void endClimb(ClimbEnd end, long now) {
    climbEndedNanos = now;
    String detail = detail(end);
    if (opened == 0 && end != ClimbEnd.TIME_UP && end != ClimbEnd.CAP_REACHED) {
      throw new ConnectionsException("connections client: cannot connect to " + settings.server().getHostAddress()
          + " ports " + settings.ports() + ": " + detail);
    }
    climb = new ClimbLine(end, open, detail);
    println(climb.line());
  }

  private String detail(ClimbEnd end) {
    long streak = failures.streak();
    return switch (end) {
      case CAP_REACHED -> "opened the cap of " + settings.cap() + " connections";
      case CLIENT_PORTS -> (binder == null ? "the kernel's source address used its " + range.describe()
          : binder.exhausted()) + " toward each of the "
          + serverPorts.length + " server ports: add source addresses or server ports";
      case CLIENT_OPEN_FILES -> outOfFiles + " with " + open + " connections open (" + ProcessLimits.openFilesText()
          + " for this process); hint: " + (outOfFiles.contains("in system")
              ? "raise fs.file-max (plan 'prepare: {file_max: N}')" : ConnectionsException.NOFILE_HINT);
      case REFUSED -> streak + " connects in a row refused, last " + failures.last()
          + ": nothing listens there any more, or the SUT rejects connections";
      case SYN_TIMEOUTS -> streak + " connects in a row unanswered, last " + failures.last()
          + ": the SUT drops SYNs (its accept queue or conntrack table is full, or a firewall)";
      case CONNECT_ERRORS -> streak + " connects in a row failed, last " + failures.last();
      case CLOSED_BY_SUT -> "no new peak for " + settings.stall().toSeconds() + " s while the SUT closed "
          + (closedByPeer - closedAtLastPeak) + " held connections";
      case STALLED -> "no new peak for " + settings.stall().toSeconds() + " s (peak " + peakOpen + ")";
      case TIME_UP -> "still opening at " + open + " connections when " + (stopRequested ? "stopped" : "its duration "
          + "ended") + " (" + failures.all() + " failed connects so far): the count is a lower bound";
      case SUT_OPEN_FILES -> "the server's open-file limit"; // the server's line, never the client's
    };
  }

  private long selectMillis(long now, Ticker ticker, long start) {
    long millis = ticker.millisUntilDue(now);
    if (climb == null) {
      if (!pending.isEmpty()) {
        millis = Math.min(millis, untilMillis(pending.peekFirst().deadlineNanos, now));
      }
      millis = Math.min(millis, untilMillis(lastPeakNanos + settings.stall().toNanos(), now));
    } else if (settings.hold() != null) {
      millis = Math.min(millis, untilMillis(climbEndedNanos + settings.hold().toNanos(), now));
    }
    if (settings.duration() != null) {
      millis = Math.min(millis, untilMillis(start + settings.duration().toNanos(), now));
    }
    return millis;
  }

  private static long untilMillis(long deadlineNanos, long now) {
    return Math.max(1, (deadlineNanos - now) / 1_000_000 + 1);
  }

  private void startConnects(long now) throws IOException {
    while (inFlight < settings.maxInFlight() && (settings.cap() == null || open + inFlight < settings.cap())
        && failures.streak() < settings.maxFailures() && outOfFiles == null && !stopRequested) {
      int pair = pairs.next();
      if (pair < 0) {
        return;
      }
      InetSocketAddress remote = new InetSocketAddress(settings.server(), serverPorts[pairs.portIndex(pair)]);
      SocketChannel channel;
      try {
        channel = SocketChannel.open();
      } catch (IOException e) {
        if (Kind.of(e.getMessage()) == Kind.OPEN_FILES) {
          outOfFiles = e.getMessage();
          return;
        }
        throw e;
      }
      try {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        if (binder != null && !binder.bind(channel, pair)) {
          closeQuietly(channel);
          pairs.exhaust(pair);
          continue;
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
        Kind kind = Kind.of(e.getMessage());
        if (kind == Kind.NO_LOCAL_PORT && binder == null) {
          pairs.exhaust(pair); // connect() searched the whole ephemeral range for this destination
        } else if (kind == Kind.OPEN_FILES) {
          outOfFiles = e.getMessage();
          return;
        } else if (kind != Kind.NO_LOCAL_PORT) { // a bound port whose 4-tuple is taken: the next one is tried
          failure(kind, remote, e.getMessage());
        }
      }
    }
  }

  private void handleReady() {
    HeldSockets.forEachReady(selector, key -> {
      if (key.isConnectable()) {
        finishConnect(key);
      } else if (key.isReadable()) {
        drain(key);
      }
    });
  }

  /** A connect the selector says is done: held from now on (read only to notice a close), or counted as failed. */
  private void finishConnect(SelectionKey key) {
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
      failure(Kind.of(e.getMessage()), p.remote, e.getMessage());
    }
  }

  private void established() {
    opened++;
    open++;
    failures.succeeded();
    if (open > peakOpen) {
      peakOpen = open;
      lastPeakNanos = System.nanoTime();
      closedAtLastPeak = closedByPeer;
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
        failure(Kind.TIMED_OUT, head.remote, "connect timed out after " + settings.connectTimeout().toMillis()
            + " ms");
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

  private void failure(Kind kind, InetSocketAddress remote, String message) {
    failures.failed(kind, remote.getAddress().getHostAddress() + ":" + remote.getPort() + ": " + message);
  }

  private String startLine() {
    String sources = settings.sources().isEmpty() ? "kernel"
        : settings.sources().stream().map(InetAddress::getHostAddress).collect(Collectors.joining(","));
    return String.format(Locale.ROOT, "connections: client server=%s ports=%s (%d) sources=%s local_ports=%s %s cap=%s",
        settings.server().getHostAddress(), settings.ports(), serverPorts.length, sources, range.describe(),
        ProcessLimits.openFilesText(), capText());
  }

  private void summary(long start) {
    long end = System.nanoTime();
    double climbSeconds = ((climbEndedNanos == 0 ? end : climbEndedNanos) - start) / 1e9;
    println(String.format(Locale.ROOT, "connections: summary ended_by=%s opened=%d peak_open=%d failed=%d "
            + "refused=%d timed_out=%d closed_by_peer=%d opening_s=%.3f mean_rate=%d/s elapsed_s=%.3f",
        climb == null ? "error" : climb.end().code(), opened, peakOpen, failures.all(), failures.total(Kind.REFUSED),
        failures.total(Kind.TIMED_OUT), closedByPeer, climbSeconds,
        Math.round(opened / Math.max(1e-9, climbSeconds)), (end - start) / 1e9));
  }

  private String capText() {
    return settings.cap() == null ? "none" : settings.cap().toString();
  }

  private void println(String line) {
    out.println(line);
    out.flush();
  }

  public ClientStats stats() {
    return new ClientStats(open, settings.cap(), opened, failures.all(), inFlight, closedByPeer, peakOpen);
  }

  /** The climb's end once it has ended, else null. */
  public ClimbLine climb() {
    return climb;
  }

  /** Ends {@link #run()} soon, which then closes every connection; safe from any thread. */
  public void stop() {
    stopRequested = true;
    HeldSockets.wakeUp(selector);
  }

  private void closeAll() {
    HeldSockets.closeRegistered(selector);
    open = 0;
    inFlight = 0;
  }

  private static void closeQuietly(AutoCloseable c) {
    HeldSockets.closeQuietly(c);
  }
}
