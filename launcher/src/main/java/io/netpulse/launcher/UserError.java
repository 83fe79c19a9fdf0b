package io.netpulse.launcher;

/** A problem the user can fix; printed as one line, never with a stack trace. */
public class UserError extends RuntimeException {

  private final int exitCode;

  public UserError(String message) {
    this(message, 2);
  }

  public UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
