package io.netpulse.holder;

import java.io.IOException;

/**
 * A failure of the connection tool the user can act on: printed as one line ({@code netpulse: MESSAGE}), exit 2,
 * both by {@link HolderMain} and by the launcher's {@code netpulse connections}.
 */
public final class ConnectionsException extends RuntimeException {

  /** Exit status for these failures, as for bad usage. */
  public static final int EXIT_CODE = 2;
  /** What to do when a process runs out of file descriptors; also in the launcher's reading of c1000k's errors. */
  public static final String NOFILE_HINT = "raise nofile for this process (prlimit --nofile=N:N, ulimit -n, "
      + "or plan 'prepare: {nofile: N}')";

  public ConnectionsException(String message) {
    super(message);
  }

  /** EMFILE / ENFILE: the JDK reports them only through the message text. */
  static boolean tooManyOpenFiles(IOException e) {
    String m = e.getMessage();
    return m != null && m.contains("Too many open files"); // also "... in system" (ENFILE)
  }

  static ConnectionsException tooManyOpenFiles(String side, long open, IOException e) {
    return new ConnectionsException("connections " + side + ": " + e.getMessage() + " with " + open
        + " connections open; hint: " + NOFILE_HINT);
  }
}
