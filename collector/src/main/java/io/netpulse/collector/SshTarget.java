package io.netpulse.collector;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A host reached over SSH.
 *
 * @param name       host name used as the key of its lines
 * @param address    address or DNS name to connect to
 * @param port       SSH port
 * @param user       login
 * @param identity   private key file (OpenSSH format)
 * @param knownHosts known_hosts file the host key is checked against
 * @param hostKeys   what to do with a host whose key is not in known_hosts
 * @param connectTimeout connection and channel-open timeout
 * @param jumps      bastions to go through, first one connected directly, each with its own identity and
 *                   known_hosts (OpenSSH's ProxyJump); empty: connect directly
 */
public record SshTarget(String name, String address, int port, String user, Path identity, Path knownHosts,
    HostKeyPolicy hostKeys, Duration connectTimeout, List<SshTarget> jumps) {

  public SshTarget {
    jumps = jumps == null ? List.of() : List.copyOf(jumps);
  }

  /** A host reached directly. */
  public SshTarget(String name, String address, int port, String user, Path identity, Path knownHosts,
      HostKeyPolicy hostKeys, Duration connectTimeout) {
    this(name, address, port, user, identity, knownHosts, hostKeys, connectTimeout, List.of());
  }

  /** Host key checking. There is no "accept anything": a changed key is always refused. */
  public enum HostKeyPolicy {
    /** Only hosts already in known_hosts (the default). */
    STRICT,
    /** Also hosts not yet in known_hosts, whose key is then added to it (OpenSSH's accept-new). */
    ACCEPT_NEW;

    public static HostKeyPolicy parse(String text) {
      return switch (text == null ? "strict" : text.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "strict", "yes" -> STRICT;
        case "accept-new" -> ACCEPT_NEW;
        default -> throw new IllegalArgumentException("host key policy must be 'strict' or 'accept-new', got '"
            + text + "'");
      };
    }
  }

  @Override
  public String toString() {
    return name + " (" + user + "@" + address + ":" + port + ")";
  }

  /** The hops as OpenSSH's -J writes them, e.g. {@code root@203.0.113.7:22}; empty when direct. */
  public String jumpPath() {
    return String.join(",", jumps.stream().map(j -> j.user() + "@" + (j.address().contains(":") ? "[" + j.address() + "]" : j.address()) + ":" + j.port()).toList());
  }
}
