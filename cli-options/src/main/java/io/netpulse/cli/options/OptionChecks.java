package io.netpulse.cli.options;

import io.netpulse.launcher.UserError;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Checks of option values before a command starts anything. Each failure is a {@link UserError} (exit 2) naming the
 * flag and the variable it can come from, as a deployment sets it either way.
 */
public final class OptionChecks {

  /** Kafka's legal topic characters (and so the Streams application id's, which prefixes internal topics). */
  private static final Pattern TOPIC_CHARS = Pattern.compile("[a-zA-Z0-9._-]*");
  private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9a-fA-F:.]+]|[^\\s:,\\[\\]]+):(\\d{1,5})");
  /** Kafka's limit on a topic name. */
  private static final int MAX_TOPIC_NAME = 249;

  private OptionChecks() {}

  /** {@code --influx-org (NETPULSE_INFLUX_ORG)}: how errors name an option that has a variable. */
  public static String named(String flag) {
    return flag + " (" + envName(flag) + ")";
  }

  /** The variable an option reads: NETPULSE_ and its name in upper snake case (the deploy tests hold to it). */
  public static String envName(String flag) {
    return "NETPULSE_" + flag.replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
  }

  public static String requireText(String value, String flag, String what) {
    if (value == null || value.isBlank()) {
      throw new UserError(named(flag) + " is empty: give " + what);
    }
    return value.strip();
  }

  public static void requireRange(long value, long min, long max, String flag) {
    if (value < min || value > max) {
      throw new UserError(named(flag) + " must be " + (max == Long.MAX_VALUE ? "≥ " + min
          : "between " + min + " and " + max) + ", got " + value);
    }
  }

  /** A duration between {@code min} and {@code max} (null: no upper bound), named in the plans' syntax. */
  public static void requireRange(java.time.Duration value, java.time.Duration min, java.time.Duration max,
      String flag) {
    if (value.compareTo(min) < 0 || (max != null && value.compareTo(max) > 0)) {
      throw new UserError(named(flag) + " must be " + (max == null ? "≥ " + fmt(min)
          : "between " + fmt(min) + " and " + fmt(max)) + ", got " + fmt(value));
    }
  }

  private static String fmt(java.time.Duration d) {
    return io.netpulse.launcher.plan.Durations.format(d);
  }

  public static void requirePort(int port, String flag) {
    requireRange(port, 0, 65535, flag);
  }

  /**
   * A fixed port that something already listens on fails now, before a broker, a store and a processor have been
   * started only to be stopped again when the last of them cannot bind. (0, a free port, is always fine; the port can
   * still be taken between this check and the bind, which then fails with the same message.)
   */
  public static void requireFreePort(String host, int port, String flag) {
    requirePort(port, flag);
    if (port == 0) {
      return;
    }
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.bind(new java.net.InetSocketAddress(host, port));
    } catch (java.io.IOException e) {
      throw new UserError("port " + port + " on " + host + " is already in use (or cannot be bound: " + e.getMessage()
          + "); choose another with " + named(flag) + ", or 0 for a free one");
    }
  }

  /** An http(s) URL with a host, as the InfluxDB client needs it. */
  public static void requireHttpUrl(String url, String flag) {
    requireText(url, flag, "the store's URL, e.g. http://influxdb:8086");
    try {
      URI uri = new URI(url.strip());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return;
      }
    } catch (URISyntaxException e) {
      // reported below with the rest
    }
    throw new UserError(named(flag) + " must be an http:// or https:// URL with a host, e.g. http://influxdb:8086; "
        + "got '" + url + "'");
  }

  /** HOST:PORT[,HOST:PORT...] with ports Kafka accepts; {@code source} names where the value came from. */
  public static void requireServers(String servers, String source) {
    for (String entry : servers.split(",", -1)) {
      var m = HOST_PORT.matcher(entry.strip());
      if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
        throw new UserError(source + " must be HOST:PORT[,HOST:PORT...] with ports 1 to 65535, got '" + servers + "'");
      }
    }
  }

  /** Characters and length that make legal Kafka topic names once the netpulse names are appended. */
  public static void requireTopicPrefix(String prefix, int longestSuffix) {
    if (prefix == null || !TOPIC_CHARS.matcher(prefix).matches()) {
      throw new UserError(named("--topic-prefix") + " may hold only letters, digits, '.', '_' and '-' (Kafka's topic "
          + "name characters), got '" + prefix + "'");
    }
    if (prefix.length() + longestSuffix > MAX_TOPIC_NAME) {
      throw new UserError(named("--topic-prefix") + " is too long: topic names are limited to " + MAX_TOPIC_NAME
          + " characters");
    }
  }

  /** A Kafka Streams application id: it names the consumer group and prefixes internal topics. */
  public static void requireApplicationId(String id) {
    requireText(id, "--application-id", "the Kafka Streams application id");
    if (!TOPIC_CHARS.matcher(id).matches() || id.length() > 200) {
      throw new UserError(named("--application-id") + " may hold only letters, digits, '.', '_' and '-' (it prefixes "
          + "Kafka topic names), at most 200 characters; got '" + id + "'");
    }
  }

  /** A file this command must read; null passes (the option is optional). */
  public static void requireReadableFile(Path file, String flag) {
    if (file != null && !(Files.isRegularFile(file) && Files.isReadable(file))) {
      throw new UserError(named(flag) + ": cannot read " + file + (Files.exists(file) ? " (not a readable file)"
          : " (no such file)"));
    }
  }

  /** A file this command will write (creating its directory); null passes (the option is optional). */
  public static void requireWritableFileLocation(Path file, String flag) {
    if (file == null) {
      return;
    }
    Path dir = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException | SecurityException e) {
      throw new UserError(named(flag) + ": cannot create the directory of " + file + " (" + e.getMessage() + ")");
    }
    if (Files.isDirectory(file) || !Files.isWritable(dir)) {
      throw new UserError(named(flag) + ": cannot write " + file + (Files.isDirectory(file) ? " (a directory)"
          : " (" + dir + " is not writable)"));
    }
  }
}
