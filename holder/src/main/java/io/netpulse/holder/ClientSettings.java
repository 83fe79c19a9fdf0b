package io.netpulse.holder;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link ConnectionClient} does. Start from {@link #to} (the defaults) and change what differs.
 *
 * @param server         the server's address
 * @param ports          server ports, used round-robin
 * @param sources        local addresses to connect from, round-robin; empty lets the kernel choose
 * @param cap            connections to open at most; null: climb until something stops it
 * @param maxInFlight    connects started and not yet finished, at most (keeps the server's accept queue from
 *                       overflowing, which would turn into SYN retries of a second and more)
 * @param hold           how long to hold once the climb has ended; null: until stopped (or {@code duration})
 * @param duration       the whole run at most, climb and hold; a climb still rising then ended by time; null: none
 * @param connectTimeout a connect not finished by then counts as failed (a SYN timeout)
 * @param maxFailures    failed connects in a row (no success between) that end the climb
 * @param stall          no new peak for this long ends the climb (the count stopped rising)
 */
public record ClientSettings(InetAddress server, PortSet ports, List<InetAddress> sources, Long cap,
    int maxInFlight, Duration hold, Duration duration, Duration connectTimeout, long maxFailures, Duration stall) {

  public static final int DEFAULT_IN_FLIGHT = 1000;
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final long DEFAULT_MAX_FAILURES = 1000;
  public static final Duration DEFAULT_STALL = Duration.ofSeconds(30);

  public ClientSettings {
    sources = List.copyOf(sources);
    if (server == null || ports == null) {
      throw new IllegalArgumentException("server and ports are required");
    }
    if ((cap != null && cap < 1) || maxInFlight < 1 || maxFailures < 1) {
      throw new IllegalArgumentException("cap, in-flight and max failures must be at least 1; got " + cap + ", "
          + maxInFlight + ", " + maxFailures);
    }
    if (!positive(connectTimeout) || !positive(stall) || (hold != null && hold.isNegative())
        || (duration != null && !positive(duration))) {
      throw new IllegalArgumentException("connect timeout, stall and duration must be positive, hold not negative");
    }
  }

  /** Climb to {@code server}'s {@code ports} from the kernel's address, no cap, held until stopped. */
  public static ClientSettings to(InetAddress server, PortSet ports) {
    return new ClientSettings(server, ports, List.of(), null, DEFAULT_IN_FLIGHT, null, null,
        DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_FAILURES, DEFAULT_STALL);
  }

  public ClientSettings withSources(List<InetAddress> s) {
    return new ClientSettings(server, ports, s, cap, maxInFlight, hold, duration, connectTimeout, maxFailures, stall);
  }

  public ClientSettings withCap(Long c) {
    return new ClientSettings(server, ports, sources, c, maxInFlight, hold, duration, connectTimeout, maxFailures, stall);
  }

  public ClientSettings withInFlight(int n) {
    return new ClientSettings(server, ports, sources, cap, n, hold, duration, connectTimeout, maxFailures, stall);
  }

  public ClientSettings withHold(Duration h) {
    return new ClientSettings(server, ports, sources, cap, maxInFlight, h, duration, connectTimeout, maxFailures, stall);
  }

  public ClientSettings withDuration(Duration d) {
    return new ClientSettings(server, ports, sources, cap, maxInFlight, hold, d, connectTimeout, maxFailures, stall);
  }

  public ClientSettings withConnectTimeout(Duration t) {
    return new ClientSettings(server, ports, sources, cap, maxInFlight, hold, duration, t, maxFailures, stall);
  }

  public ClientSettings withMaxFailures(long n) {
    return new ClientSettings(server, ports, sources, cap, maxInFlight, hold, duration, connectTimeout, n, stall);
  }

  public ClientSettings withStall(Duration s) {
    return new ClientSettings(server, ports, sources, cap, maxInFlight, hold, duration, connectTimeout, maxFailures, s);
  }

  private static boolean positive(Duration d) {
    return d != null && !d.isNegative() && !d.isZero();
  }
}
