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
 * @param identity   private key file (OpenSSH format); null: only the agent's keys
 * @param knownHosts known_hosts file the host key is checked against
 * @param hostKeys   what to do with a host whose key is not in known_hosts
 * @param connectTimeout connection and channel-open timeout
 * @param jumps      bastions to go through, first one connected directly, each with its own identity and
 *                   known_hosts (OpenSSH's ProxyJump); empty: connect directly
 * @param agent      ssh-agent socket whose keys are offered after {@code identity}; null: no agent
 */
public record SshTarget(String name, String address, int port, String user, Path identity, Path knownHosts,
    HostKeyPolicy hostKeys, Duration connectTimeout, List<SshTarget> jumps, Path agent) {

  public SshTarget {
    jumps = jumps == null ? List.of() : List.copyOf(jumps);
  }

  /** With the agent of {@code SSH_AUTH_SOCK}, if set. */
  public SshTarget(String name, String address, int port, String user, Path identity, Path knownHosts,
      HostKeyPolicy hostKeys, Duration connectTimeout, List<SshTarget> jumps) {
    this(name, address, port, user, identity, knownHosts, hostKeys, connectTimeout, jumps, SshAgent.fromEnvironment());
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

  /**
   * A bastion written as OpenSSH's -J does, {@code [user@]host[:port]} ({@code [v6]:port} for IPv6), for the host
   * {@code behind} it: logged into with that host's user (unless given), identity, known_hosts and host key policy.
   *
   * @throws IllegalArgumentException naming what is wrong with {@code spec}
   */
  public static SshTarget jump(String spec, SshTarget behind) {
    String text = spec.strip();
    String user = behind.user();
    String rest = text;
    int at = text.lastIndexOf('@');
    if (at >= 0) {
      user = text.substring(0, at);
      rest = text.substring(at + 1);
      if (!USER.matcher(user).matches()) {
        throw new IllegalArgumentException("proxy_jump '" + text + "': the user is not a user name (letters, digits, "
            + "'_', '.', '-')");
      }
    }
    String host = rest;
    String port = "22";
    if (rest.startsWith("[") && rest.indexOf(']') > 0) {
      host = rest.substring(1, rest.indexOf(']'));
      String after = rest.substring(rest.indexOf(']') + 1);
      port = after.startsWith(":") ? after.substring(1) : after.isEmpty() ? port : "?";
    } else if (rest.indexOf(':') > 0 && rest.indexOf(':') == rest.lastIndexOf(':')) {
      host = rest.substring(0, rest.indexOf(':'));
      port = rest.substring(rest.indexOf(':') + 1);
    }
    if (!HOST.matcher(host).matches()) {
      throw new IllegalArgumentException("proxy_jump '" + text + "': '" + host + "' is not an IP literal or a host "
          + "name; expected [user@]host[:port], e.g. ubuntu@203.0.113.7:22");
    }
    int portNumber = port.matches("[0-9]{1,5}") ? Integer.parseInt(port) : -1;
    if (portNumber < 1 || portNumber > 65535) {
      throw new IllegalArgumentException("proxy_jump '" + text + "': the port is not a number from 1 to 65535");
    }
    return new SshTarget(text, host, portNumber, user, behind.identity(), behind.knownHosts(), behind.hostKeys(),
        behind.connectTimeout(), List.of(), behind.agent());
  }

  private static final java.util.regex.Pattern USER = java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}");
  /** Host names and IPv4/IPv6 literals by their characters; the resolver or jsch says the rest. */
  private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:-]*");

  /** This target reached through {@code hops}, in order. */
  public SshTarget through(List<SshTarget> hops) {
    return new SshTarget(name, address, port, user, identity, knownHosts, hostKeys, connectTimeout, hops, agent);
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
