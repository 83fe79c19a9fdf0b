package io.netpulse.launcher.connections;

import io.netpulse.launcher.cli.UserError;
import java.io.IOException;

/** A failure of the connection tool the user can act on; the CLI prints its one line and exits 2. */
public final class ConnectionsException extends UserError {

  static final String NOFILE_HINT = "raise nofile for this process (prlimit --nofile=N:N, ulimit -n, "
      + "or plan 'prepare: {nofile: N}')";

  public ConnectionsException(String message) {
    super(message, 2);
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
