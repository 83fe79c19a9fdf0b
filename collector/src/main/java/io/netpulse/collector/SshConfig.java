package io.netpulse.collector;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The part of an OpenSSH client configuration ({@code ~/.ssh/config}, ssh_config(5)) that says how to reach a host:
 * {@code Host} blocks (patterns with {@code *}, {@code ?} and {@code !}), {@code HostName}, {@code User}, {@code Port},
 * {@code IdentityFile}, {@code ProxyJump} and {@code IdentityAgent}, with {@code Include}. As OpenSSH: keywords in any
 * case, the first value found wins (every {@code IdentityFile} counts, in order), lines before the first {@code Host}
 * apply to all hosts. {@code Match} blocks are skipped ({@code Match all} applies), other keywords ignored.
 * <p>
 * Own parser rather than jsch's OpenSSHConfig: that one keeps no line numbers (errors must name the line), reads a
 * {@code Match} line's settings into the Host block before it, applies a block whose negated pattern does not match
 * even when no other pattern matches, and has no {@code Include}.
 */
public final class SshConfig {

  /** The default file, {@code ~/.ssh/config}. */
  public static Path defaultFile() {
    return home().resolve(".ssh").resolve("config");
  }

  private static final int MAX_INCLUDE_DEPTH = 16;
  private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

  /** One setting: keyword in lower case, value as written (quotes removed), where it was read. */
  private record Line(String keyword, String value, Path file, int number) {
    String where() {
      return file + " line " + number;
    }
  }

  /** A Host block: its patterns (null: the lines before the first Host, or {@code Match all}) and settings. */
  private record Block(List<String> patterns, List<Line> lines) {
    boolean matches(String host) {
      if (patterns == null) {
        return true;
      }
      boolean any = false;
      for (String p : patterns) {
        boolean negated = p.startsWith("!");
        boolean match = glob(negated ? p.substring(1) : p, host);
        if (match && negated) {
          return false; // OpenSSH: a matching negated pattern rules the block out
        }
        any |= match && !negated;
      }
      return any;
    }
  }

  private final Path file;
  private final List<Block> blocks;

  private SshConfig(Path file, List<Block> blocks) {
    this.file = file;
    this.blocks = blocks;
  }

  /** No configuration (the plan or inventory said {@code ssh_config: none}, or the default file does not exist). */
  public static SshConfig none() {
    return new SshConfig(null, List.of());
  }

  /** The file read, null for {@link #none()}. */
  public Path file() {
    return file;
  }

  /**
   * Reads {@code file}; when {@code optional} (the default file), a missing file is no configuration.
   *
   * @throws IllegalArgumentException naming the file and line of what is wrong, or why it cannot be read
   */
  public static SshConfig read(Path file, boolean optional) {
    if (optional && !Files.exists(file)) {
      return none();
    }
    List<Block> blocks = new ArrayList<>();
    blocks.add(new Block(null, new ArrayList<>()));
    readInto(file, blocks, 0);
    return new SshConfig(file, List.copyOf(blocks));
  }

  private static void readInto(Path file, List<Block> blocks, int depth) {
    List<String> text;
    try {
      text = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("ssh config " + file + " cannot be read: " + (e instanceof
          java.nio.file.NoSuchFileException ? "no such file" : e.getMessage())
          + " (give another file with ssh_config: PATH, or ssh_config: none not to read one)");
    }
    for (int i = 0; i < text.size(); i++) {
      String raw = text.get(i).strip();
      if (raw.isEmpty() || raw.startsWith("#")) {
        continue;
      }
      int n = i + 1;
      String[] kv = raw.split("\\s*=\\s*|\\s+", 2);
      String keyword = kv[0].toLowerCase(Locale.ROOT);
      String value = kv.length < 2 ? "" : kv[1].strip();
      if (value.isEmpty()) {
        throw new IllegalArgumentException("ssh config " + file + " line " + n + ": " + kv[0] + " has no value");
      }
      switch (keyword) {
        case "host" -> blocks.add(new Block(List.of(unquote(value).split("\\s+")), new ArrayList<>()));
        // only "Match all" is evaluated; other criteria (exec, user, ...) rule their block out
        case "match" -> blocks.add(new Block(value.equalsIgnoreCase("all") ? null : List.of("!*"), new ArrayList<>()));
        case "include" -> {
          if (depth >= MAX_INCLUDE_DEPTH) {
            throw new IllegalArgumentException("ssh config " + file + " line " + n + ": Include nested deeper than "
                + MAX_INCLUDE_DEPTH + " files (an Include loop?)");
          }
          for (String pattern : unquote(value).split("\\s+")) {
            for (Path included : included(pattern, file)) {
              readInto(included, blocks, depth + 1);
            }
          }
        }
        default -> blocks.get(blocks.size() - 1).lines().add(new Line(keyword, unquote(value), file, n));
      }
    }
  }

  /** Include's files: relative ones under ~/.ssh, as OpenSSH has it; a glob matching nothing is no error. */
  private static List<Path> included(String pattern, Path from) {
    String expanded = pattern.startsWith("~/") ? home() + pattern.substring(1) : pattern;
    Path p = Path.of(expanded);
    Path full = p.isAbsolute() ? p : home().resolve(".ssh").resolve(p);
    if (!full.toString().contains("*") && !full.toString().contains("?")) {
      return Files.exists(full) ? List.of(full) : List.of();
    }
    Path dir = full.getParent();
    PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + full);
    try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
      return s.filter(m::matches).sorted().toList();
    } catch (IOException e) {
      throw new IllegalArgumentException("ssh config " + from + ": Include " + pattern + ": " + e.getMessage());
    }
  }

  /**
   * What the configuration says for {@code host} as written in a plan or inventory (an alias or an address).
   *
   * @throws IllegalArgumentException naming the file and line of a bad Port (an IdentityFile is checked only where
   *     used: {@link SshHostConfig#readableIdentity()})
   */
  public SshHostConfig lookup(String host) {
    Map<String, Line> first = new HashMap<>();
    List<Line> identityFiles = new ArrayList<>();
    List<String> blocksUsed = new ArrayList<>();
    for (Block b : blocks) {
      if (!b.matches(host)) {
        continue;
      }
      if (b.patterns() != null && !b.lines().isEmpty()) {
        blocksUsed.add(String.join(" ", b.patterns()));
      }
      for (Line l : b.lines()) {
        if (l.keyword().equals("identityfile")) {
          identityFiles.add(l);
        } else {
          first.putIfAbsent(l.keyword(), l);
        }
      }
    }
    Map<String, String> origins = new LinkedHashMap<>();
    Line hostName = first.get("hostname");
    String address = hostName == null ? null : hostName.value().replace("%h", host).replace("%%", "%");
    note(origins, "HostName", hostName);
    Line userLine = first.get("user");
    String user = userLine == null ? null : userLine.value();
    note(origins, "User", userLine);
    Line portLine = first.get("port");
    Integer port = null;
    if (portLine != null) {
      port = PORT.matcher(portLine.value()).matches() ? Integer.parseInt(portLine.value()) : -1;
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("ssh config " + portLine.where() + ": Port '" + portLine.value()
            + "' is not a number from 1 to 65535");
      }
      note(origins, "Port", portLine);
    }
    Path identity = null;
    if (!identityFiles.isEmpty()) {
      Line l = identityFiles.get(0);
      String target = address == null ? host : address;
      identity = Path.of(expandTilde(l.value().replace("%d", home().toString()).replace("%h", target)
          .replace("%r", user == null ? System.getProperty("user.name") : user)
          .replace("%u", System.getProperty("user.name")).replace("%%", "%")));
      note(origins, "IdentityFile", l);
    }
    Line jumpLine = first.get("proxyjump");
    List<String> jumps = null;
    if (jumpLine != null) {
      jumps = jumpLine.value().equalsIgnoreCase("none") ? List.of() : List.of(jumpLine.value().split(",", -1));
      note(origins, "ProxyJump", jumpLine);
    }
    Line agentLine = first.get("identityagent");
    String agent = agentLine == null ? null : agentLine.value();
    note(origins, "IdentityAgent", agentLine);
    return new SshHostConfig(host, address, user, port, identity, jumps, agent, Map.copyOf(origins),
        jumpLine == null ? null : jumpLine.where());
  }

  /**
   * A bastion as the configuration resolves it; null where the host behind it decides (its user, port 22, its
   * identity).
   *
   * @param spec     the hop as written, e.g. {@code bastion} or {@code ops@203.0.113.7:22}
   * @param address  where to connect (HostName, else the host written)
   * @param user     the user written in the hop, else User
   * @param port     the port written in the hop, else Port
   * @param identity the first IdentityFile of the hop
   */
  public record Hop(String spec, String address, String user, Integer port, Path identity) {}

  /**
   * The bastions to go through for the hop {@code user@host:port} (user and port null when not written): the hop's own
   * ProxyJump first, resolved the same way (OpenSSH runs {@code ssh -W} to the hop, which reads the file again),
   * then the hop itself.
   *
   * @throws IllegalArgumentException naming file and line for a loop or a malformed ProxyJump entry
   */
  public List<Hop> hops(String spec, String user, String host, Integer port) {
    List<Hop> path = new ArrayList<>();
    hops(spec, user, host, port, new ArrayList<>(), path);
    return path;
  }

  private void hops(String spec, String user, String host, Integer port, List<String> visiting, List<Hop> path) {
    SshHostConfig c = lookup(host);
    if (visiting.contains(host)) {
      throw new IllegalArgumentException("ssh config " + c.proxyJumpAt() + ": ProxyJump of " + host + " leads back to "
          + "it (" + String.join(" -> ", visiting) + " -> " + host + ")");
    }
    visiting.add(host);
    if (c.proxyJump() != null) {
      for (String entry : c.proxyJump()) {
        String text = entry.strip();
        java.util.regex.Matcher m = HOP.matcher(text);
        if (!m.matches()) {
          throw new IllegalArgumentException("ssh config " + c.proxyJumpAt() + " (Host " + host + "): ProxyJump entry '"
              + text + "' is not [user@]host[:port]");
        }
        String hopPort = m.group(3) != null ? m.group(3) : m.group(5);
        int p = hopPort == null ? 0 : PORT.matcher(hopPort).matches() ? Integer.parseInt(hopPort) : -1;
        if (p < 0 || p > 65535) {
          throw new IllegalArgumentException("ssh config " + c.proxyJumpAt() + " (Host " + host + "): the port of '"
              + text + "' is not a number from 1 to 65535");
        }
        hops(text, m.group(1), m.group(2) != null ? m.group(2) : m.group(4), hopPort == null ? null : p, visiting,
            path);
      }
    }
    visiting.remove(visiting.size() - 1);
    path.add(new Hop(spec, c.address(), user != null ? user : c.user(), port != null ? port : c.port(),
        c.identity() == null ? null : c.readableIdentity()));
  }

  /** [user@]host[:port], [v6]:port for IPv6. */
  private static final Pattern HOP = Pattern.compile(
      "(?:([A-Za-z0-9_][A-Za-z0-9_.-]*)@)?(?:\\[([0-9A-Fa-f:.]+)\\](?::([0-9]+))?|([A-Za-z0-9][A-Za-z0-9.-]*)(?::([0-9]+))?)");

  /** Whether a Host block names {@code host} itself or a pattern other than {@code *} matches it. */
  public boolean knows(String host) {
    return blocks.stream().anyMatch(b -> b.patterns() != null && b.matches(host)
        && b.patterns().stream().anyMatch(p -> !p.equals("*") && !p.startsWith("!") && glob(p, host)));
  }

  private static void note(Map<String, String> origins, String keyword, Line l) {
    if (l != null) {
      origins.put(keyword, l.where());
    }
  }

  private static String unquote(String v) {
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
  }

  private static String expandTilde(String p) {
    return p.equals("~") ? home().toString() : p.startsWith("~/") ? home() + p.substring(1) : p;
  }

  private static Path home() {
    return Path.of(System.getProperty("user.home"));
  }

  /** OpenSSH's pattern: {@code *} any run of characters, {@code ?} one, case-insensitive as host names are. */
  static boolean glob(String pattern, String text) {
    StringBuilder re = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
    }
    return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE).matcher(text).matches();
  }

  @Override
  public String toString() {
    return file == null ? "no ssh config" : file.toString();
  }
}
