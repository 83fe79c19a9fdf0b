package io.netpulse.launcher.remote;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offloads of a host's interface from {@code ethtool -k IFACE} ("show features"), for host facts. ethtool prints a
 * header ({@code Features for IFACE:}), then one feature a line, {@code name: on|off}, with {@code [fixed]} where the
 * driver does not let it change and {@code [requested on]} / {@code [requested off]} where the wanted state is not the
 * active one; a tab-indented line is a sub-feature of the line above it. The top-level features are kept, each value
 * as ethtool printed it ({@code "off [fixed]"}). Names have underscores too ({@code tx-udp_tnl-segmentation}).
 */
public final class EthtoolFeatures {

  private static final Pattern FEATURE = Pattern.compile("([a-z0-9][a-z0-9_-]*): ((?:on|off)(?: \\[[a-z ]+\\])?)");

  /**
   * What the host facts say about offloads: {@code features} null when ethtool is not on the host (unknown), empty
   * when it is but said nothing usable; {@code note} says why, for the preflight line (null when all went well).
   */
  public record Offloads(Map<String, String> features, String note) {

    public Offloads {
      features = features == null ? null : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(features));
    }
  }

  /** What a host without ethtool gives. */
  public static final Offloads NOT_INSTALLED = new Offloads(null,
      "offloads unknown: ethtool is not installed (Debian package ethtool)");

  private EthtoolFeatures() {}

  /**
   * The top-level features of one {@code ethtool -k} output.
   *
   * @throws IllegalArgumentException naming the line (1-based) and what it holds when a line is neither the header,
   *                                  a sub-feature nor a feature
   */
  public static Map<String, String> parse(List<String> lines) {
    Map<String, String> features = new TreeMap<>();
    int n = 0;
    for (String raw : lines) {
      n++;
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.isBlank() || line.startsWith("\t") || n == 1 && line.startsWith("Features for ")) {
        continue; // sub-features refine the line above; the header names the interface
      }
      Matcher m = FEATURE.matcher(line.strip());
      if (!m.matches()) {
        throw new IllegalArgumentException("line " + n + ": not a feature (name: on|off [fixed]): '"
            + abbreviate(line) + "'");
      }
      features.put(m.group(1), m.group(2));
    }
    return features;
  }

  /**
   * The offloads of {@code iface} from what the preflight probe ran: {@code exit} is ethtool's exit status,
   * {@code stdout} the features it listed, {@code stderr} its complaints (older ethtool prints "Cannot get device ...
   * settings" there for features a driver does not answer, and still lists the others). Never throws: an unreadable
   * answer is a note, not a failed preflight.
   */
  public static Offloads read(String iface, int exit, List<String> stdout, List<String> stderr) {
    String command = "ethtool -k " + iface;
    if (exit != 0) {
      String first = java.util.stream.Stream.concat(stderr.stream(), stdout.stream()).filter(l -> !l.isBlank())
          .findFirst().map(String::strip).orElse("no output");
      return new Offloads(Map.of(), "offloads unknown: " + command + " failed (exit " + exit + "): "
          + abbreviate(first));
    }
    try {
      Map<String, String> features = parse(stdout);
      return features.isEmpty() ? new Offloads(features, "offloads unknown: " + command + " listed no feature")
          : new Offloads(features, null);
    } catch (IllegalArgumentException e) {
      return new Offloads(Map.of(), "offloads unknown: " + command + " output " + e.getMessage());
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 120 ? s : s.substring(0, 117) + "...";
  }
}
