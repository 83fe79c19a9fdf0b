package io.netpulse.collector;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.Sampler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The hosts the agentless collector samples, read from YAML:
 *
 * <pre>
 * defaults:                        # optional; every key may also be set per host
 *   user: root
 *   port: 22
 *   identity: ~/.ssh/id_ed25519    # relative paths are relative to the inventory file
 *   known_hosts: ~/.ssh/known_hosts
 *   host_key_policy: strict        # or accept-new (unknown hosts are added); a changed key is always refused
 *   samplers: [sar-dev, ss-summary] # sar-dev falls back to proc-net-dev on hosts without sysstat
 *   connect_timeout: 10s           # 500ms, 10s, 2m as in plans (connect_timeout_s: 10, its old form, warns)
 *   proxy_jump: ops@203.0.113.7:22 # bastions, OpenSSH's -J: [user@]host[:port], one or a list
 *   ssh_config: ~/.ssh/config      # the default (when it exists); none: do not read one
 * hosts:
 *   - name: sut-1                  # key of its lines; default: the address
 *     address: 198.18.0.2
 * </pre>
 * An {@code address} that a {@code Host} block of the OpenSSH configuration matches takes HostName, User, Port,
 * IdentityFile, ProxyJump and IdentityAgent from it where the inventory (host or defaults) gives no value. Without an
 * identity file, the keys of ssh-agent ({@code SSH_AUTH_SOCK}) are offered; with one, they are offered after it.
 */
public record Inventory(List<Host> hosts) {

  /** One host and what to sample on it. */
  public record Host(SshTarget target, List<Sampler> samplers) {}

  /** The YAML as written; nulls where a key is absent. */
  record Entry(String name, String address, String user, Integer port, String identity, String knownHosts,
      String hostKeyPolicy, List<String> samplers, String connectTimeout, Integer connectTimeoutS, List<String> proxyJump,
      String sshConfig) {}

  record Document(Entry defaults, List<Entry> hosts) {}

  private static final ObjectMapper YAML = YAMLMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // a misspelt key must not be silently ignored
      .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY) // proxy_jump: one bastion or a list
      .build();

  /** Reads and checks an inventory; every problem is an {@link InventoryException} naming the file and the host. */
  public static Inventory load(Path file) {
    Document doc;
    try {
      doc = YAML.readValue(Files.readString(file), Document.class);
    } catch (NoSuchFileException e) {
      throw new InventoryException("inventory " + file + " does not exist");
    } catch (UnrecognizedPropertyException e) {
      throw new InventoryException("inventory " + file + ": unknown key '" + e.getPropertyName() + "' at "
          + path(e) + " (near line " + e.getLocation().getLineNr() + "); known keys: "
          + e.getKnownPropertyIds().stream().map(Object::toString).sorted().toList());
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : " line " + e.getLocation().getLineNr() + " column "
          + e.getLocation().getColumnNr();
      throw new InventoryException("inventory " + file + where + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InventoryException("cannot read inventory " + file + ": " + e.getMessage());
    }
    if (doc == null || doc.hosts() == null || doc.hosts().isEmpty()) {
      throw new InventoryException("inventory " + file + " lists no hosts (a 'hosts:' list is needed)");
    }
    Entry defaults = doc.defaults() == null
        ? new Entry(null, null, null, null, null, null, null, null, null, null, null, null) : doc.defaults();
    warnOldTimeout(defaults, "inventory " + file + " defaults");
    Duration defaultTimeout = connectTimeout(defaults, "inventory " + file + " defaults");
    Path base = file.toAbsolutePath().getParent();
    List<Host> hosts = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<Path, SshConfig> configs = new HashMap<>();
    for (int i = 0; i < doc.hosts().size(); i++) {
      Entry e = doc.hosts().get(i);
      String where = "inventory " + file + " host #" + (i + 1);
      if (e == null || e.address() == null || e.address().isBlank()) {
        throw new InventoryException(where + " has no address");
      }
      String name = first(e.name(), null, e.address());
      where += " (" + name + ")";
      if (!names.add(name)) {
        throw new InventoryException(where + ": the name is used twice; host names key the lines and must differ");
      }
      Path home = Path.of(System.getProperty("user.home"));
      String configText = first(e.sshConfig(), defaults.sshConfig(), null);
      SshHostConfig ssh;
      SshConfig config;
      try {
        config = configText == null ? configs.computeIfAbsent(SshConfig.defaultFile(),
            f -> SshConfig.read(f, true)) : configText.strip().equals("none") ? SshConfig.none()
            : configs.computeIfAbsent(path(base, home, configText), f -> SshConfig.read(f, false));
        ssh = config.lookup(e.address().strip());
      } catch (IllegalArgumentException bad) {
        throw new InventoryException(where + ": " + bad.getMessage());
      }
      int port = first(e.port(), defaults.port(), ssh.port() != null ? ssh.port() : 22);
      if (port < 1 || port > 65535) {
        throw new InventoryException(where + ": port " + port + " is not a TCP port");
      }
      SshTarget.HostKeyPolicy policy;
      List<Sampler> samplers = new ArrayList<>();
      try {
        policy = SshTarget.HostKeyPolicy.parse(first(e.hostKeyPolicy(), defaults.hostKeyPolicy(), "strict"));
        for (String s : first(e.samplers(), defaults.samplers(), List.of(Sources.SAR_DEV, "ss-summary"))) {
          samplers.add(Sampler.named(s));
        }
      } catch (IllegalArgumentException bad) {
        throw new InventoryException(where + ": " + bad.getMessage());
      }
      String identityText = first(e.identity(), defaults.identity(), null);
      Path identity = identityText != null ? path(base, home, identityText)
          : ssh.identity() != null ? configIdentity(ssh, where) : defaultIdentity(home);
      Path agent = SshAgent.socket(ssh.identityAgent());
      Path knownHosts = path(base, home, first(e.knownHosts(), defaults.knownHosts(), "~/.ssh/known_hosts"));
      if (identityText != null && !Files.isReadable(identity)) {
        throw new InventoryException(where + ": identity " + identity + " is not a readable file");
      }
      if (identity == null && agent == null) {
        throw new InventoryException(where + ": no identity given, none of ~/.ssh/id_ed25519, ~/.ssh/id_ecdsa, "
            + "~/.ssh/id_rsa exists and no ssh-agent (SSH_AUTH_SOCK is unset); set identity:, or start ssh-agent "
            + "and ssh-add a key");
      }
      if (policy == SshTarget.HostKeyPolicy.STRICT && !Files.isReadable(knownHosts)) {
        throw new InventoryException(where + ": known_hosts " + knownHosts + " is not readable, and host_key_policy "
            + "is strict (set host_key_policy: accept-new to record new hosts' keys in it)");
      }
      warnOldTimeout(e, where);
      Duration own = connectTimeout(e, where);
      Duration timeout = own != null ? own : defaultTimeout != null ? defaultTimeout : Duration.ofSeconds(10);
      String user = first(e.user(), defaults.user(), ssh.user() != null ? ssh.user() : System.getProperty("user.name"));
      SshTarget target = new SshTarget(name, ssh.address(), port, user, identity, knownHosts, policy,
          timeout, List.of(), agent);
      List<String> jumpSpecs = first(e.proxyJump(), defaults.proxyJump(), null);
      String jumpOrigin = null;
      if (jumpSpecs == null && ssh.proxyJump() != null) {
        jumpSpecs = ssh.proxyJump();
        jumpOrigin = ssh.proxyJumpAt();
      }
      List<SshTarget> jumps = jumps(config, jumpSpecs == null ? List.of() : jumpSpecs, target,
          jumpOrigin == null ? where : where + " (ProxyJump of " + jumpOrigin + ")");
      hosts.add(new Host(target.through(jumps), List.copyOf(samplers)));
    }
    return new Inventory(List.copyOf(hosts));
  }

  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static Path configIdentity(SshHostConfig ssh, String where) {
    try {
      return ssh.readableIdentity();
    } catch (IllegalArgumentException bad) {
      throw new InventoryException(where + ": " + bad.getMessage());
    }
  }

  /** The first of OpenSSH's default key files that exists, null when none does (the agent may still have keys). */
  private static Path defaultIdentity(Path home) {
    return Stream.of("id_ed25519", "id_ecdsa", "id_rsa").map(k -> home.resolve(".ssh").resolve(k))
        .filter(Files::isReadable).findFirst().orElse(null);
  }

  /**
   * The bastions, each {@code [user@]host[:port]} and resolved through the OpenSSH configuration with the bastions its
   * own ProxyJump names first; what neither says comes from {@code behind} (its user, port 22, identity, known_hosts,
   * host key policy and agent).
   */
  private static List<SshTarget> jumps(SshConfig config, List<String> specs, SshTarget behind, String where) {
    List<SshTarget> jumps = new ArrayList<>();
    for (String spec : specs) {
      for (String hop : (spec == null ? "" : spec).split(",", -1)) {
        if (hop.isBlank()) {
          throw new InventoryException(where + ": proxy_jump has an empty entry; expected [user@]host[:port], "
              + "e.g. ubuntu@203.0.113.7:22");
        }
        try {
          SshTarget parsed = SshTarget.jump(hop, behind); // checks the form
          String text = hop.strip();
          String hostPort = text.substring(text.lastIndexOf('@') + 1);
          boolean portGiven = hostPort.startsWith("[") ? hostPort.contains("]:")
              : hostPort.indexOf(':') > 0 && hostPort.indexOf(':') == hostPort.lastIndexOf(':');
          for (SshConfig.Hop h : config.hops(text, text.contains("@") ? parsed.user() : null, parsed.address(),
              portGiven ? parsed.port() : null)) {
            jumps.add(new SshTarget(h.spec(), h.address(), h.port() != null ? h.port() : 22,
                h.user() != null ? h.user() : behind.user(), h.identity() != null ? h.identity() : behind.identity(),
                behind.knownHosts(), behind.hostKeys(), behind.connectTimeout(), List.of(), behind.agent()));
          }
        } catch (IllegalArgumentException bad) {
          throw new InventoryException(where + ": " + bad.getMessage());
        }
      }
    }
    return jumps;
  }

  private static Path path(Path base, Path home, String text) {
    if (text.equals("~")) {
      return home;
    }
    if (text.startsWith("~/")) {
      return home.resolve(text.substring(2));
    }
    return base.resolve(text);
  }

  private static <T> T first(T own, T fromDefaults, T fallback) {
    return own != null ? own : fromDefaults != null ? fromDefaults : fallback;
  }

  /**
   * The entry's connect timeout, null when it sets none: {@code connect_timeout} in the plans' duration syntax, or the
   * deprecated {@code connect_timeout_s} (whole seconds).
   */
  private static Duration connectTimeout(Entry e, String where) {
    if (e.connectTimeout() != null && e.connectTimeoutS() != null) {
      throw new InventoryException(where + ": both connect_timeout and connect_timeout_s (its old form); keep "
          + "connect_timeout only");
    }
    Duration d = e.connectTimeoutS() != null ? Duration.ofSeconds(e.connectTimeoutS())
        : e.connectTimeout() == null ? null : io.netpulse.holder.DurationText.parse(e.connectTimeout());
    if (e.connectTimeout() != null && d == null) {
      throw new InventoryException(where + ": connect_timeout '" + e.connectTimeout() + "' is not a duration such "
          + "as 10s, 500ms or 1m");
    }
    if (d != null && d.isZero()) {
      throw new InventoryException(where + ": connect_timeout must be more than zero");
    }
    return d;
  }

  /** One stderr line per entry that still writes connect_timeout_s. */
  private static void warnOldTimeout(Entry e, String where) {
    if (e.connectTimeoutS() != null) {
      System.err.println(where + ": warning: connect_timeout_s is deprecated and will be removed in the next "
          + "release; write connect_timeout: " + e.connectTimeoutS() + "s");
    }
  }
}
