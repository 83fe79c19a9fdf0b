package io.netpulse.launcher.plan;

import java.nio.file.Path;
import java.util.List;

/**
 * A host of the plan, reached over SSH. {@code identity} and {@code knownHosts} are local files,
 * resolved against the plan's directory; {@code java} is the remote Java to start netpulse's own
 * tools with (null: {@code java} on the remote PATH); {@code sourceAddresses} are the IP literals the host connects
 * from as a concurrent_connections client, each worth one ephemeral port range per server port (empty: the
 * kernel's choice, one address).
 */
public record HostSpec(
    String name,
    String address,
    String user,
    int port,
    Path identity,
    Path knownHosts,
    boolean acceptNewHostKeys,
    String java,
    List<String> sourceAddresses) {

  public HostSpec {
    sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
  }

  /** A host without source addresses of its own. */
  public HostSpec(String name, String address, String user, int port, Path identity, Path knownHosts,
      boolean acceptNewHostKeys, String java) {
    this(name, address, user, port, identity, knownHosts, acceptNewHostKeys, java, List.of());
  }
}
