package io.netpulse.launcher.plan;

import io.netpulse.collector.SshConfig;
import io.netpulse.collector.SshHostConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenSSH client configurations a plan's hosts read ({@code ssh_config:}, default {@code ~/.ssh/config} when it
 * exists, {@code none} for none), each file read once per plan. Problems become plan errors at the host's
 * {@code ssh_config} or {@code address}, their text naming the config file and line.
 */
final class SshConfigs {

  static final String NONE = "none";

  private final PlanReader r;
  private final Map<Path, SshConfig> read = new HashMap<>();
  /** Plan host → the configuration it reads. */
  private final Map<String, SshConfig> ofHost = new HashMap<>();

  SshConfigs(PlanReader r) {
    this.r = r;
  }

  /**
   * What {@code host}'s configuration says for its {@code address} ({@link SshHostConfig#empty} when it reads none,
   * or on an error, which is recorded at {@code at}).
   *
   * @param file the host's ssh_config as resolved against the plan's directory; null: the default; {@code NONE}-path
   *             (see {@link #isNone}): none
   */
  SshHostConfig lookup(String host, String address, Path file, YamlTree.Location at, String where) {
    SshConfig config;
    try {
      config = file == null ? read.computeIfAbsent(SshConfig.defaultFile(), f -> SshConfig.read(f, true))
          : isNone(file) ? SshConfig.none() : read.computeIfAbsent(file, f -> SshConfig.read(f, false));
    } catch (IllegalArgumentException e) {
      r.error(at, where + " ssh_config: " + e.getMessage());
      config = SshConfig.none();
    }
    ofHost.put(host, config);
    if (address == null) {
      return SshHostConfig.empty(null);
    }
    try {
      return config.lookup(address);
    } catch (IllegalArgumentException e) {
      r.error(at, where + " address " + address + ": " + e.getMessage());
      return SshHostConfig.empty(address);
    }
  }

  static boolean isNone(Path file) {
    return file.getFileName() != null && file.getFileName().toString().equals(NONE) && file.getNameCount() == 1;
  }

  /** Whether {@code host}'s configuration has a Host block for {@code name} (so a bastion may be written by alias). */
  boolean knows(String host, String name) {
    return ofHost.getOrDefault(host, SshConfig.none()).knows(name);
  }

  /**
   * The bastion {@code user@name:port} (user, port null when not written) of {@code self}, with the bastions its own
   * ProxyJump names first; what the configuration does not say comes from {@code self}: its user, port 22, identity,
   * known_hosts, host_key_policy and agent. Null on an error (recorded at {@code at}).
   */
  List<HostSpec> outside(HostSpec self, String text, String user, String name, Integer port, YamlTree.Location at,
      String where) {
    try {
      return ofHost.getOrDefault(self.name(), SshConfig.none()).hops(text, user, name, port).stream()
          .map(h -> new HostSpec(h.spec(), h.address(), h.user() != null ? h.user() : self.user(),
              h.port() != null ? h.port() : 22, h.identity() != null ? h.identity() : self.identity(),
              self.knownHosts(), self.acceptNewHostKeys(), null, List.of(), null, List.of(), self.agent(), ""))
          .toList();
    } catch (IllegalArgumentException e) {
      r.error(at, where + ": " + e.getMessage());
      return null;
    }
  }
}
