package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import picocli.CommandLine.Option;

/** Where the dashboard listens. */
public final class DashboardOptions {

  @Option(names = "--dashboard-host", paramLabel = "ADDRESS", defaultValue = "${env:NETPULSE_DASHBOARD_HOST:-127.0.0.1}",
      description = "Address the dashboard binds (default: ${DEFAULT-VALUE}). Any non-loopback "
          + "address requires a token.")
  public String host;

  @Option(names = "--dashboard-port", paramLabel = "PORT", defaultValue = "${env:NETPULSE_DASHBOARD_PORT:-0}",
      description = "Dashboard port (default: a free port; the URL is printed when ready).")
  public int port;

  @Option(names = "--dashboard-token", paramLabel = "TOKEN", defaultValue = "${env:NETPULSE_DASHBOARD_TOKEN}",
      description = "Token required by a non-loopback dashboard (generated and printed if not given).")
  public String token;

  /** The port's range; the host and token are checked by the dashboard, which knows whether it is loopback. */
  public void validate() {
    OptionChecks.requireText(host, "--dashboard-host", "the address to bind, e.g. 127.0.0.1 or 0.0.0.0");
    OptionChecks.requireFreePort(host, port, "--dashboard-port");
  }
}
