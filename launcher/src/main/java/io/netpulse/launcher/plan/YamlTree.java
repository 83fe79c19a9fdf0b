package io.netpulse.launcher.plan;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YAML read into a tree that keeps each node's line and column (Jackson's {@code JsonNode} drops
 * them), so that plan errors can point at the exact place.
 */
final class YamlTree {

  /** 1-based position in the file. */
  record Location(int line, int column) {
    static Location of(JsonLocation l) {
      return new Location(Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
    }
  }

  sealed interface Node permits MapNode, ListNode, ScalarNode {
    Location at();

    /** What the node is, for "expected a number, got a list" messages. */
    String kind();
  }

  record Entry(String key, Location keyAt, Node value) {}

  record MapNode(Location at, Map<String, Entry> entries) implements Node {
    @Override
    public String kind() {
      return "a mapping";
    }
  }

  record ListNode(Location at, List<Node> items) implements Node {
    @Override
    public String kind() {
      return "a list";
    }
  }

  /** A scalar; {@code token} tells YAML's typing (VALUE_STRING, VALUE_NUMBER_INT, VALUE_TRUE, VALUE_NULL …). */
  record ScalarNode(Location at, JsonToken token, String text) implements Node {
    @Override
    public String kind() {
      return switch (token) {
        case VALUE_NULL -> "nothing (null)";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean (" + text + ")";
        case VALUE_NUMBER_INT -> "a whole number (" + text + ")";
        case VALUE_NUMBER_FLOAT -> "a number (" + text + ")";
        default -> "text ('" + text + "')";
      };
    }
  }

  /** Thrown for YAML that is not well-formed; nothing else can be checked then. */
  static final class SyntaxError extends Exception {
    final Location at;

    SyntaxError(Location at, String message) {
      super(message);
      this.at = at;
    }
  }

  private static final YAMLFactory FACTORY = new YAMLFactory();

  private final List<PlanError> errors;
  private final String file;

  private YamlTree(String file, List<PlanError> errors) {
    this.file = file;
    this.errors = errors;
  }

  /** Reads one YAML document; duplicate keys are reported into {@code errors} (the last one wins). */
  static Node read(String file, String text, List<PlanError> errors) throws SyntaxError {
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new SyntaxError(new Location(1, 1), "the plan is empty, expected a mapping with name, hosts and tests");
      }
      return new YamlTree(file, errors).node(p);
    } catch (JsonProcessingException e) {
      JsonLocation l = e.getLocation();
      Location at = l == null ? new Location(1, 1) : Location.of(l);
      throw new SyntaxError(at, "not valid YAML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new SyntaxError(new Location(1, 1), "cannot read: " + e.getMessage());
    }
  }

  private Node node(JsonParser p) throws IOException {
    Location at = Location.of(p.currentTokenLocation());
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Entry> entries = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          Location keyAt = Location.of(p.currentTokenLocation());
          p.nextToken();
          Node value = node(p);
          Entry previous = entries.put(key, new Entry(key, keyAt, value));
          if (previous != null) {
            errors.add(new PlanError(file, keyAt.line(), keyAt.column(), "duplicate key '" + key
                + "' (first at line " + previous.keyAt().line() + "), expected each key once"));
          }
        }
        return new MapNode(at, entries);
      }
      case START_ARRAY -> {
        List<Node> items = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          items.add(node(p));
        }
        return new ListNode(at, items);
      }
      default -> {
        return new ScalarNode(at, t, t == JsonToken.VALUE_NULL ? null : p.getText());
      }
    }
  }
}
