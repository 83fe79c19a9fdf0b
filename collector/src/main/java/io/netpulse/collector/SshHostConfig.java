package io.netpulse.collector;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What an OpenSSH client configuration says for one destination; null where it says nothing.
 *
 * @param alias         the name looked up, as the plan or inventory writes it
 * @param hostName      HostName: the address to connect to instead of {@code alias}
 * @param user          User
 * @param port          Port
 * @param identity      the first IdentityFile, not checked: see {@link #readableIdentity()}
 * @param proxyJump     ProxyJump's hops as written ({@code [user@]host[:port]} or another alias); empty for
 *                      {@code ProxyJump none}
 * @param identityAgent IdentityAgent: a socket path, {@code SSH_AUTH_SOCK} or {@code none}
 * @param origins       keyword → "FILE line N" for each value above that the file gave
 * @param proxyJumpAt   "FILE line N" of the ProxyJump, for errors about its hops
 */
public record SshHostConfig(String alias, String hostName, String user, Integer port, Path identity,
    List<String> proxyJump, String identityAgent, Map<String, String> origins, String proxyJumpAt) {

  /** Nothing configured for {@code alias}. */
  public static SshHostConfig empty(String alias) {
    return new SshHostConfig(alias, null, null, null, null, null, null, Map.of(), null);
  }

  /** The address to connect to: HostName, else the alias itself. */
  public String address() {
    return hostName != null ? hostName : alias;
  }

  /**
   * {@link #identity()}, checked to be a readable file when it is used (OpenSSH would skip a missing one silently, and
   * then fail with a less clear refusal).
   *
   * @throws IllegalArgumentException naming the config file, line and Host
   */
  public Path readableIdentity() {
    if (identity != null && !java.nio.file.Files.isReadable(identity)) {
      throw new IllegalArgumentException("ssh config " + origins.get("IdentityFile") + " (Host " + alias
          + "): IdentityFile " + identity + " is not a readable file");
    }
    return identity;
  }

  public boolean isEmpty() {
    return origins.isEmpty();
  }

  /** E.g. {@code HostName, User from /root/.ssh/config lines 4, 5}; empty when none of {@code used} came from it. */
  public String describe(java.util.Collection<String> used) {
    Map<String, List<String>> byFile = new java.util.LinkedHashMap<>();
    origins.entrySet().stream().filter(e -> used.contains(e.getKey())).sorted(java.util.Comparator.comparingInt(
            e -> Integer.parseInt(e.getValue().replaceAll("^.* line ", ""))))
        .forEach(e -> byFile.computeIfAbsent(e.getValue().replaceAll(" line \\d+$", ""), f -> new java.util.ArrayList<>())
            .add(e.getKey() + "@" + e.getValue().replaceAll("^.* line ", "")));
    return byFile.entrySet().stream().map(e -> e.getValue().stream().map(k -> k.split("@")[0])
        .collect(Collectors.joining(", ")) + " from " + e.getKey() + " line" + (e.getValue().size() > 1 ? "s " : " ")
        + e.getValue().stream().map(k -> k.split("@")[1]).collect(Collectors.joining(", ")))
        .collect(Collectors.joining("; "));
  }
}
