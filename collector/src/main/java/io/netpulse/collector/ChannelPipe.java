package io.netpulse.collector;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded byte pipe from a jump channel to the SSH session tunnelled through it, usable by any threads.
 *
 * <p>Why not the channel's own stream: jsch's is a {@link java.io.PipedInputStream}, which refuses a write once the
 * last thread that read from it has ended ("Read end dead"). The tunnelled session's handshake is read by whichever
 * thread connects it (a pool thread that ends soon after), the rest by jsch's session thread; bytes arriving between
 * the two made jsch close the jump channel, and the session was down at its first command. Here, which threads read
 * or write does not matter: only closing either end does.
 */
final class ChannelPipe {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition readable = lock.newCondition();
  private final Condition writable = lock.newCondition();
  private final byte[] ring;
  private int head; // next byte to read
  private int count;
  private boolean sinkClosed;
  private boolean sourceClosed;
  private final InputStream source = new Source();
  private final OutputStream sink = new Sink();

  ChannelPipe(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " < 1");
    }
    ring = new byte[capacity];
  }

  /** What the session reads: the bytes written to {@link #sink()}, then end of stream once the sink is closed. */
  InputStream source() {
    return source;
  }

  /** What the channel writes to; a write waits while the pipe is full, and fails once the source is closed. */
  OutputStream sink() {
    return sink;
  }

  private final class Source extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      java.util.Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      lock.lock();
      try {
        while (count == 0) {
          if (sinkClosed || sourceClosed) {
            return -1;
          }
          awaitSignal(readable);
        }
        int n = Math.min(len, count);
        int first = Math.min(n, ring.length - head);
        System.arraycopy(ring, head, b, off, first);
        System.arraycopy(ring, 0, b, off + first, n - first);
        head = (head + n) % ring.length;
        count -= n;
        writable.signalAll();
        return n;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public int available() {
      lock.lock();
      try {
        return count;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void close() {
      closeEnd(true);
    }
  }

  private final class Sink extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      java.util.Objects.checkFromIndexSize(off, len, b.length);
      lock.lock();
      try {
        while (len > 0) {
          if (sourceClosed) {
            throw new IOException("pipe closed by its reader");
          }
          if (sinkClosed) {
            throw new IOException("pipe closed");
          }
          if (count == ring.length) {
            awaitSignal(writable);
            continue;
          }
          int tail = (head + count) % ring.length;
          int n = Math.min(len, Math.min(ring.length - count, ring.length - tail));
          System.arraycopy(b, off, ring, tail, n);
          count += n;
          off += n;
          len -= n;
          readable.signalAll();
        }
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void close() {
      closeEnd(false);
    }
  }

  /** Closes one end and wakes whoever waits on the other; the reader's close drops what it has not read. */
  private void closeEnd(boolean source) {
    lock.lock();
    try {
      if (source) {
        sourceClosed = true;
        count = 0;
      } else {
        sinkClosed = true;
      }
      readable.signalAll();
      writable.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits for a signal; an interrupt ends the wait as an {@link InterruptedIOException}, flag kept. */
  private static void awaitSignal(Condition condition) throws InterruptedIOException {
    try {
      condition.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting on a jump channel's pipe");
    }
  }
}
