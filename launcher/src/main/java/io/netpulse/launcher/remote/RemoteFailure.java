package io.netpulse.launcher.remote;

/**
 * A user-facing failure on a remote host: the message names the host, what went wrong and what to do. Callers print
 * {@link #getMessage()} only; the cause (if any) is for logs at debug level.
 */
public final class RemoteFailure extends Exception {

  private final String host;

  public RemoteFailure(String host, String message) {
    super(message);
    this.host = host;
  }

  public RemoteFailure(String host, String message, Throwable cause) {
    super(message, cause);
    this.host = host;
  }

  /** The plan host name (several, comma-separated, when the failure covers more than one host). */
  public String host() {
    return host;
  }
}
