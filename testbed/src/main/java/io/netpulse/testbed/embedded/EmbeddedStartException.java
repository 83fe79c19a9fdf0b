package io.netpulse.testbed.embedded;

/** An embedded component could not start; the message says what to change. */
public class EmbeddedStartException extends RuntimeException {

  public EmbeddedStartException(String message) {
    super(message);
  }

  public EmbeddedStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
