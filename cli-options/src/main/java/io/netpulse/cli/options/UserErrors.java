package io.netpulse.cli.options;

import io.netpulse.launcher.UserError;

import io.netpulse.testbed.embedded.EmbeddedStartException;
import io.netpulse.testbed.netns.HostNetworkException;
import io.netpulse.dashboard.DashboardStartException;
import io.netpulse.holder.ConnectionsException;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** Turns exceptions into one-line messages and exit codes; a stack trace only with NETPULSE_DEBUG=1. */
public final class UserErrors {

  private UserErrors() {}

  public static int handle(Exception e, CommandLine cli, ParseResult parsed) {
    if (e instanceof UserError u) {
      cli.getErr().println("netpulse: " + u.getMessage());
      return u.exitCode();
    }
    if (e instanceof ConnectionsException) { // netpulse connections: the holder's own failures, as its jar prints them
      cli.getErr().println("netpulse: " + e.getMessage());
      return ConnectionsException.EXIT_CODE;
    }
    if (e instanceof EmbeddedStartException || e instanceof DashboardStartException
        || e instanceof HostNetworkException) {
      cli.getErr().println("netpulse: " + e.getMessage());
      return 2;
    }
    cli.getErr().println("netpulse: " + e.getClass().getSimpleName() + ": " + e.getMessage()
        + " (set NETPULSE_DEBUG=1 for details)");
    if ("1".equals(System.getenv("NETPULSE_DEBUG"))) {
      e.printStackTrace(cli.getErr());
    }
    return 1;
  }
}
