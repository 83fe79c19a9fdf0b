package io.netpulse.launcher.connections;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link ConnectionClient} does.
 *
 * @param server         the server's address
 * @param ports          server ports, used round-robin
 * @param sources        local addresses to connect from, round-robin; empty lets the kernel choose
 * @param target         connections to open and hold
 * @param maxInFlight    connects started and not yet finished, at most (keeps the server's accept queue from
 *                       overflowing, which would turn into SYN retries of a second and more)
 * @param hold           how long to hold once opening is over (target reached or given up); null: until stopped
 * @param connectTimeout a connect not finished by then counts as failed
 * @param maxFailures    failed connects after which the client stops opening (and holds what it has)
 */
public record ClientSettings(InetAddress server, PortRange ports, List<InetAddress> sources, long target,
    int maxInFlight, Duration hold, Duration connectTimeout, long maxFailures) {

  public ClientSettings {
    sources = List.copyOf(sources);
    if (server == null || ports == null) {
      throw new IllegalArgumentException("server and ports are required");
    }
    if (target < 1 || maxInFlight < 1 || maxFailures < 0) {
      throw new IllegalArgumentException("target and in-flight must be at least 1, max failures at least 0; got "
          + target + ", " + maxInFlight + ", " + maxFailures);
    }
    if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()
        || (hold != null && hold.isNegative())) {
      throw new IllegalArgumentException("connect timeout must be positive and hold not negative");
    }
  }
}
