package io.netpulse.dashboard;

/** The dashboard could not start; the message is one line meant for the user. */
public class DashboardStartException extends RuntimeException {

  public DashboardStartException(String message) {
    super(message);
  }

  public DashboardStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
