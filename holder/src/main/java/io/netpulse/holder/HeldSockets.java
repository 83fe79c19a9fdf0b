package io.netpulse.holder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Iterator;

/**
 * What both sides do with a connection they only hold: discard what arrives, notice when the other side lets go;
 * and the selector loop both run over them.
 */
final class HeldSockets {

  private HeldSockets() {}

  /**
   * Reads and discards what is readable; when the peer has closed or reset the connection, cancels the key,
   * closes the channel and returns true.
   */
  static boolean drainClosed(SelectionKey key, ByteBuffer discard) {
    SocketChannel channel = (SocketChannel) key.channel();
    try {
      int n;
      do {
        discard.clear();
        n = channel.read(discard);
      } while (n > 0);
      if (n == 0) {
        return false;
      }
    } catch (IOException reset) {
      // a reset is how the client side aborts (SO_LINGER 0): the same as a close here
    }
    key.cancel();
    closeQuietly(channel);
    return true;
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing a socket we are done with: nothing to report
    }
  }

  /** What a selector loop does with one ready key; {@code E} lets a handler that throws nothing need no catch. */
  @FunctionalInterface
  interface ReadyKeyHandler<E extends Exception> {
    void handle(SelectionKey key) throws E;
  }

  /**
   * Hands each key {@code selector}'s last select found ready to {@code handler}, taking it off the selected set
   * first (the selector never does) and skipping one no longer valid (its connection closed since the select).
   */
  static <E extends Exception> void forEachReady(Selector selector, ReadyKeyHandler<E> handler) throws E {
    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
    while (keys.hasNext()) {
      SelectionKey key = keys.next();
      keys.remove();
      if (key.isValid()) {
        handler.handle(key);
      }
    }
  }

  /** Wakes {@code selector} if it is open yet, so that a loop blocked in it sees its stop flag at once. */
  static void wakeUp(Selector selector) {
    if (selector != null) {
      selector.wakeup();
    }
  }

  /** Closes every channel registered with {@code selector}, then the selector; nothing when it is null. */
  static void closeRegistered(Selector selector) {
    if (selector != null) {
      for (SelectionKey key : selector.keys()) {
        closeQuietly(key.channel());
      }
      closeQuietly(selector);
    }
  }
}
