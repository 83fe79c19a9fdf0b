package io.netpulse.launcher.plan;

import com.fasterxml.jackson.core.JsonToken;
import io.netpulse.launcher.plan.YamlTree.Entry;
import io.netpulse.launcher.plan.YamlTree.ListNode;
import io.netpulse.launcher.plan.YamlTree.Location;
import io.netpulse.launcher.plan.YamlTree.MapNode;
import io.netpulse.launcher.plan.YamlTree.Node;
import io.netpulse.launcher.plan.YamlTree.ScalarNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Typed reads from a located YAML tree. Each problem is recorded as a {@link PlanError} with the
 * value's line and column and the reader carries on with a default, so one pass finds every error.
 */
final class PlanReader {

  private final String file;
  final List<PlanError> errors;
  private final java.util.function.Consumer<PlanError> warnings;

  PlanReader(String file, List<PlanError> errors) {
    this(file, errors, w -> { });
  }

  PlanReader(String file, List<PlanError> errors, java.util.function.Consumer<PlanError> warnings) {
    this.file = file;
    this.errors = errors;
    this.warnings = warnings;
  }

  void error(Location at, String message) {
    errors.add(new PlanError(file, at.line(), at.column(), message));
  }

  /** Something the plan should say otherwise but that still works, e.g. a deprecated key. */
  void warn(Location at, String message) {
    warnings.accept(new PlanError(file, at.line(), at.column(), "warning: " + message));
  }

  /** Reports keys of {@code map} outside {@code allowed}, with the nearest allowed key as a suggestion. */
  void onlyKeys(MapNode map, Collection<String> allowed, String where) {
    onlyKeys(map, allowed, List.of(), where);
  }

  /** {@link #onlyKeys(MapNode, Collection, String)} that also accepts {@code deprecated} keys, never suggested. */
  void onlyKeys(MapNode map, Collection<String> allowed, Collection<String> deprecated, String where) {
    for (Entry e : map.entries().values()) {
      if (!allowed.contains(e.key()) && !deprecated.contains(e.key())) {
        String near = Suggestions.closest(e.key(), allowed);
        error(e.keyAt(), "unknown key '" + Addresses.printable(e.key()) + "' in " + where
            + (near != null ? ", did you mean '" + near + "'?" : ",")
            + " expected one of: " + String.join(", ", allowed));
      }
    }
  }

  MapNode mapping(Node node, String where) {
    if (node instanceof MapNode m) {
      return m;
    }
    error(node.at(), where + " is " + node.kind() + ", expected a mapping (key: value lines)");
    return null;
  }

  Node value(MapNode map, String key) {
    Entry e = map.entries().get(key);
    return e == null || isNull(e.value()) ? null : e.value();
  }

  private static boolean isNull(Node n) {
    return n instanceof ScalarNode s && s.token() == JsonToken.VALUE_NULL;
  }

  boolean has(MapNode map, String key) {
    return value(map, key) != null;
  }

  /** A required key: reports it missing at the mapping's own position. */
  Node required(MapNode map, String key, String where, String expected) {
    Node n = value(map, key);
    if (n == null) {
      error(map.at(), where + " has no '" + key + "', expected " + expected);
    }
    return n;
  }

  /** A text scalar on one line; numbers and booleans are taken as their text. */
  String text(Node n, String what) {
    if (n == null) {
      return null;
    }
    if (!(n instanceof ScalarNode s)) {
      error(n.at(), what + " is " + n.kind() + ", expected text");
      return null;
    }
    String problem = ArgumentCheck.singleLineProblem(s.text());
    if (problem != null) {
      error(n.at(), what + " " + problem + ", expected a single line of text");
      return null;
    }
    if (s.text().isBlank()) {
      error(n.at(), what + " is empty, expected text");
      return null;
    }
    return s.text();
  }

  String text(MapNode map, String key, String where, String fallback) {
    Node n = value(map, key);
    String t = text(n, where + " " + key);
    return n == null ? fallback : t;
  }

  /** A whole number in [min, max]; null (and an error) otherwise. */
  Long whole(Node n, String what, long min, long max) {
    if (n == null) {
      return null;
    }
    if (n instanceof ScalarNode s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      try {
        long v = Long.parseLong(s.text().replace("_", ""));
        if (v >= min && v <= max) {
          return v;
        }
      } catch (NumberFormatException e) {
        // out of long range: reported below like any other out-of-range number
      }
      error(n.at(), what + " is " + s.text() + ", expected a whole number from " + min
          + (max == Long.MAX_VALUE ? " up" : " to " + max));
      return null;
    }
    error(n.at(), what + " is " + n.kind() + ", expected a whole number from " + min
        + (max == Long.MAX_VALUE ? " up" : " to " + max));
    return null;
  }

  Integer integer(MapNode map, String key, String where, Integer fallback, int min, int max) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    Long v = whole(n, where + " " + key, min, max);
    return v == null ? fallback : v.intValue();
  }

  Long wholeLong(MapNode map, String key, String where, Long fallback, long min) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    Long v = whole(n, where + " " + key, min, Long.MAX_VALUE);
    return v == null ? fallback : v;
  }

  boolean bool(MapNode map, String key, String where, boolean fallback) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    if (n instanceof ScalarNode s && (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE)) {
      return s.token() == JsonToken.VALUE_TRUE;
    }
    error(n.at(), where + " " + key + " is " + n.kind() + ", expected true or false");
    return fallback;
  }

  Duration duration(MapNode map, String key, String where, Duration fallback, boolean zeroAllowed) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    String expected = "expected a duration with a unit such as 500ms, 10s, 2m or 1h"
        + (zeroAllowed ? "" : ", more than zero");
    if (!(n instanceof ScalarNode s) || s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE) {
      error(n.at(), where + " " + key + " is " + n.kind() + ", " + expected);
      return fallback;
    }
    Duration d = Durations.parse(s.text());
    if (d == null || (!zeroAllowed && d.isZero())) {
      error(n.at(), where + " " + key + " is '" + Addresses.printable(s.text()) + "', " + expected);
      return fallback;
    }
    return d;
  }

  /** A percentage, {@code 5}, {@code 0.5} or {@code "5%"}, in (0, 100]. */
  double percent(MapNode map, String key, String where, double fallback) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    if (n instanceof ScalarNode s && s.token() != JsonToken.VALUE_TRUE && s.token() != JsonToken.VALUE_FALSE) {
      String t = s.text().trim();
      t = t.endsWith("%") ? t.substring(0, t.length() - 1).trim() : t;
      try {
        double v = Double.parseDouble(t);
        if (v > 0 && v <= 100) {
          return v;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    error(n.at(), where + " " + key + " is " + n.kind() + ", expected a percentage above 0 and up to 100, e.g. 5% or 0.5");
    return fallback;
  }

  /** One of {@code choices} (lower-case names). */
  <T> T choice(MapNode map, String key, String where, T fallback, List<String> choices, Function<String, T> of) {
    Node n = value(map, key);
    if (n == null) {
      return fallback;
    }
    String t = n instanceof ScalarNode s ? s.text() : null;
    if (t != null && choices.contains(t)) {
      return of.apply(t);
    }
    String near = t == null ? null : Suggestions.closest(t, choices);
    error(n.at(), where + " " + key + " is " + n.kind()
        + (near != null ? ", did you mean '" + near + "'?" : ",") + " expected one of: " + String.join(", ", choices));
    return fallback;
  }

  /** A list of texts, or a single text taken as a list of one. */
  List<Located> texts(MapNode map, String key, String where) {
    Node n = value(map, key);
    if (n == null) {
      return null;
    }
    List<Node> items = n instanceof ListNode l ? l.items() : List.of(n);
    List<Located> out = new ArrayList<>();
    for (Node item : items) {
      String t = text(item, where + " " + key + " entry");
      if (t != null) {
        out.add(new Located(t, item.at()));
      }
    }
    if (items.isEmpty()) {
      error(n.at(), where + " " + key + " is an empty list, expected at least one host name");
    }
    return out;
  }

  /** {@code irq_affinity: { match, first_cpu, cpu_step }} under {@code parent}, or null. */
  IrqAffinity irqAffinity(MapNode parent, String where) {
    Node n = value(parent, "irq_affinity");
    MapNode m = n == null ? null : mapping(n, where + " irq_affinity");
    if (m == null) {
      return null;
    }
    String w = where + " irq_affinity";
    onlyKeys(m, PlanLoader.IRQ_KEYS, w);
    String match = text(required(m, "match", w, "the /proc/interrupts name of the NIC's queues, e.g. virtio2-input"),
        w + " match");
    return new IrqAffinity(match, integer(m, "first_cpu", w, 0, 0, 8191), integer(m, "cpu_step", w, 2, 1, 8191));
  }

  /** A text with where it was, for checks that come later (host references). */
  record Located(String text, Location at) {}
}
