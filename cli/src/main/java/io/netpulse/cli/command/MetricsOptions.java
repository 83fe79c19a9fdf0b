package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.common.metrics.MetricsServer;
import io.netpulse.common.metrics.ServiceMeters;
import io.netpulse.launcher.UserError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * A service's metrics endpoint ({@code /metrics} and {@code /health}), the same options for the processor and the
 * collector: loopback by default, a token required on any other address.
 */
public final class MetricsOptions {

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "${env:NETPULSE_METRICS_PORT}",
      description = "Serve http://HOST:PORT/metrics (Prometheus text) and /health (200 while the service works: for "
          + "the processor while Kafka Streams is RUNNING or REBALANCING, 503 otherwise) (default: not served; 0: a "
          + "free port, printed at start).")
  public Integer port;

  @Option(names = "--metrics-host", paramLabel = "ADDRESS", defaultValue = "${env:NETPULSE_METRICS_HOST:-127.0.0.1}",
      description = "Address the metrics endpoint binds (default: ${DEFAULT-VALUE}). Any non-loopback address "
          + "requires --metrics-token.")
  public String host;

  @Option(names = "--metrics-token", paramLabel = "TOKEN", defaultValue = "${env:NETPULSE_METRICS_TOKEN}",
      description = "Bearer token /metrics requires ('Authorization: Bearer TOKEN'); required on a non-loopback "
          + "--metrics-host. /health answers without it.")
  public String token;

  /** Where to serve, or null; checked before anything starts so that a bad address is a usage error. */
  public InetSocketAddress address() {
    if (port == null) {
      return null;
    }
    OptionChecks.requirePort(port, "--metrics-port");
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new UserError(OptionChecks.named("--metrics-host") + " " + host + " is not a known address");
    }
    if (!address.isLoopbackAddress() && (token == null || token.isBlank())) {
      throw new UserError("--metrics-host " + host + " is reachable from other hosts: set --metrics-token "
          + "(or NETPULSE_METRICS_TOKEN); scrapers then send 'Authorization: Bearer TOKEN'");
    }
    return new InetSocketAddress(address, port);
  }

  /** Starts the endpoint at {@code address} (from {@link #address()}), or returns null when that is null. */
  public MetricsServer serve(String service, InetSocketAddress address, ServiceMeters meters,
      Supplier<MetricsServer.Health> health) {
    return address == null ? null : serve(service, address, (Supplier<String>) meters::scrape, health);
  }

  /** As above, with what a scrape returns (e.g. refreshed meters first). */
  public MetricsServer serve(String service, InetSocketAddress address, Supplier<String> scrape,
      Supplier<MetricsServer.Health> health) {
    if (address == null) {
      return null;
    }
    try {
      return MetricsServer.start(service, address, token, scrape, health);
    } catch (IOException e) {
      throw new UserError("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage());
    }
  }
}
