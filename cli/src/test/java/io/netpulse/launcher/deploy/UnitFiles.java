package io.netpulse.launcher.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** systemd unit files read as data (as systemd splits them), and the netpulse command lines they hold. */
final class UnitFiles {

  /** Where the install steps (docs/operations.md) put bin/netpulse, which every ExecStart must run. */
  static final String NETPULSE = "/opt/netpulse/bin/netpulse";

  private UnitFiles() {}

  /** Sections of key → values (a key may repeat); comments and blank lines dropped, continuation lines joined. */
  static Map<String, Map<String, List<String>>> parseUnit(String text) {
    Map<String, Map<String, List<String>>> out = new LinkedHashMap<>();
    Map<String, List<String>> section = null;
    for (String line : text.replaceAll("\\\\\\n", " ").split("\n")) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
        continue;
      }
      if (l.startsWith("[") && l.endsWith("]")) {
        section = out.computeIfAbsent(l.substring(1, l.length() - 1), k -> new LinkedHashMap<>());
      } else if (section != null && l.contains("=")) {
        String[] kv = l.split("=", 2);
        section.computeIfAbsent(kv[0].strip(), k -> new ArrayList<>()).add(kv[1].strip());
      } else {
        throw new AssertionError("not a unit file line: " + l);
      }
    }
    return out;
  }

  /** ExecStart's words after the program, which must be the installed bin/netpulse. */
  static List<String> execArgs(String execStart) {
    List<String> words = words(execStart.replaceFirst("^[-@:+!]+", ""));
    if (words.isEmpty() || !words.get(0).equals(NETPULSE)) {
      throw new AssertionError("ExecStart '" + execStart + "' does not run " + NETPULSE);
    }
    return words.subList(1, words.size());
  }

  /** Whitespace-separated words, double quotes grouping (as systemd splits ExecStart= and Environment=). */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(text);
    while (m.find()) {
      out.add(m.group(1) != null ? m.group(1) : m.group(2));
    }
    return out;
  }

  static String one(Map<String, List<String>> section, String key) {
    List<String> values = section == null ? null : section.get(key);
    return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
  }

  /** A systemd time span as seconds: 30s, 90, 3h, 15min; infinity as the largest. */
  static long seconds(String span) {
    if (span == null) {
      return 0;
    }
    if (span.equals("infinity")) {
      return Long.MAX_VALUE;
    }
    Matcher m = Pattern.compile("(\\d+)\\s*(h|min|m|s)?").matcher(span);
    long total = 0;
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      total += switch (m.group(2) == null ? "s" : m.group(2)) {
        case "h" -> n * 3600;
        case "min", "m" -> n * 60;
        default -> n;
      };
    }
    return total;
  }

  static String optionValue(List<String> args, String option) {
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).startsWith(option + "=")) {
        return args.get(i).substring(option.length() + 1);
      }
      if (args.get(i).equals(option) && i + 1 < args.size()) {
        return args.get(i + 1);
      }
    }
    return null;
  }
}
