package io.netpulse.holder;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One file descriptor kept back for when the process runs out: released on EMFILE, it lets the clean-up
 * (closing the selector needs a descriptor the first time NIO's file dispatcher loads) and the error message
 * happen. Opening it early also loads that dispatcher while descriptors are still available.
 */
final class SpareDescriptor implements AutoCloseable {

  private FileChannel spare;

  SpareDescriptor() {
    try {
      spare = FileChannel.open(Path.of("/dev/null"));
    } catch (IOException e) {
      throw new ConnectionsException("connections: cannot open /dev/null: " + e.getMessage() + "; hint: "
          + ConnectionsException.NOFILE_HINT);
    }
  }

  /** Gives the descriptor back to the process; idempotent. */
  @Override
  public void close() {
    if (spare != null) {
      try {
        spare.close();
      } catch (IOException ignored) {
        // nothing more to free
      }
      spare = null;
    }
  }
}
