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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 *   connect_timeout_s: 10
 *   proxy_jump: ops@203.0.113.7:22 # bastions, OpenSSH's -J: [user@]host[:port], one or a list
 * hosts:
 *   - name: sut-1                  # key of its lines; default: the address
 *     address: 198.18.0.2
 * </pre>
 */
public record Inventory(List<Host> hosts) {

  /** One host and what to sample on it. */
  public record Host(SshTarget target, List<Sampler> samplers) {}

  /** The YAML as written; nulls where a key is absent. */
  record Entry(String name, String address, String user, Integer port, String identity, String knownHosts,
      String hostKeyPolicy, List<String> samplers, Integer connectTimeoutS, List<String> proxyJump) {}

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
        ? new Entry(null, null, null, null, null, null, null, null, null, null) : doc.defaults();
    Path base = file.toAbsolutePath().getParent();
    List<Host> hosts = new ArrayList<>();
    Set<String> names = new HashSet<>();
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
      int port = first(e.port(), defaults.port(), 22);
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
      Path home = Path.of(System.getProperty("user.home"));
      Path identity = path(base, home, first(e.identity(), defaults.identity(), defaultIdentity(home)));
      Path knownHosts = path(base, home, first(e.knownHosts(), defaults.knownHosts(), "~/.ssh/known_hosts"));
      if (!Files.isReadable(identity)) {
        throw new InventoryException(where + ": identity " + identity + " is not a readable file");
      }
      if (policy == SshTarget.HostKeyPolicy.STRICT && !Files.isReadable(knownHosts)) {
        throw new InventoryException(where + ": known_hosts " + knownHosts + " is not readable, and host_key_policy "
            + "is strict (set host_key_policy: accept-new to record new hosts' keys in it)");
      }
      int timeout = first(e.connectTimeoutS(), defaults.connectTimeoutS(), 10);
      String user = first(e.user(), defaults.user(), System.getProperty("user.name"));
      SshTarget target = new SshTarget(name, e.address().strip(), port, user, identity, knownHosts, policy,
          Duration.ofSeconds(timeout));
      List<SshTarget> jumps = new ArrayList<>();
      for (String spec : first(e.proxyJump(), defaults.proxyJump(), List.<String>of())) {
        for (String hop : (spec == null ? "" : spec).split(",", -1)) {
          if (hop.isBlank()) {
            throw new InventoryException(where + ": proxy_jump has an empty entry; expected [user@]host[:port], "
                + "e.g. ubuntu@203.0.113.7:22");
          }
          try {
            jumps.add(SshTarget.jump(hop, target));
          } catch (IllegalArgumentException bad) {
            throw new InventoryException(where + ": " + bad.getMessage());
          }
        }
      }
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

  private static String defaultIdentity(Path home) {
    return Files.exists(home.resolve(".ssh/id_ed25519")) ? "~/.ssh/id_ed25519" : "~/.ssh/id_rsa";
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
}
