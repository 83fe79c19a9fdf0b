package io.netpulse.launcher.plan;

import java.nio.file.Path;
import java.util.List;

/**
 * A host of the plan, reached over SSH at {@code address}. {@code identity} and {@code knownHosts} are local files,
 * resolved against the plan's directory; {@code java} is the remote Java to start netpulse's own tools with (null:
 * {@code java} on the remote PATH); {@code sourceAddresses} are the IP literals the host connects from as a
 * concurrent_connections client, each worth one ephemeral port range per server port (empty: the kernel's choice, one
 * address). {@code testAddress} is where test traffic goes (servers bind to it, clients send to it): a cloud
 * instance's private address while SSH uses its public one; {@code address} when the plan gives none.
 * {@code proxyJump} are the bastions SSH goes through, in order, each with its own user, port, identity and
 * known_hosts, already flattened (a bastion's own bastions come first); empty: SSH connects directly.
 * {@code agent} is the ssh-agent socket whose keys are offered after {@code identity} (null: none);
 * {@code fromSshConfig} says which values came from ~/.ssh/config and where (empty: none).
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
    List<String> sourceAddresses,
    String testAddress,
    List<HostSpec> proxyJump,
    Path agent,
    String fromSshConfig) {

  public HostSpec {
    sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
    testAddress = testAddress == null ? address : testAddress;
    proxyJump = proxyJump == null ? List.of() : List.copyOf(proxyJump);
    fromSshConfig = fromSshConfig == null ? "" : fromSshConfig;
  }

  /** With the agent of SSH_AUTH_SOCK (if set), nothing from ~/.ssh/config. */
  public HostSpec(String name, String address, String user, int port, Path identity, Path knownHosts,
      boolean acceptNewHostKeys, String java, List<String> sourceAddresses, String testAddress,
      List<HostSpec> proxyJump) {
    this(name, address, user, port, identity, knownHosts, acceptNewHostKeys, java, sourceAddresses, testAddress,
        proxyJump, io.netpulse.collector.SshAgent.fromEnvironment(), "");
  }

  /** A host reached directly, its traffic to its SSH address. */
  public HostSpec(String name, String address, String user, int port, Path identity, Path knownHosts,
      boolean acceptNewHostKeys, String java, List<String> sourceAddresses) {
    this(name, address, user, port, identity, knownHosts, acceptNewHostKeys, java, sourceAddresses, null, null);
  }

  /** A host without source addresses of its own. */
  public HostSpec(String name, String address, String user, int port, Path identity, Path knownHosts,
      boolean acceptNewHostKeys, String java) {
    this(name, address, user, port, identity, knownHosts, acceptNewHostKeys, java, List.of());
  }

  /** This host with {@code hops} as its jump path. */
  HostSpec withProxyJump(List<HostSpec> hops) {
    return new HostSpec(name, address, user, port, identity, knownHosts, acceptNewHostKeys, java, sourceAddresses,
        testAddress, hops, agent, fromSshConfig);
  }

  /** {@code user@address:port}, IPv6 in brackets: how OpenSSH's -J writes a hop. */
  public String sshSpec() {
    return user + "@" + (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
  }

  /** The jump path as OpenSSH's -J writes it, e.g. {@code root@203.0.113.7:22}; empty when direct. */
  public String jumpPath() {
    return String.join(",", proxyJump.stream().map(HostSpec::sshSpec).toList());
  }
}
