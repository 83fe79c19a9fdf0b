package io.netpulse.common.event;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.util.List;

/**
 * Reads a {@code lines} record, either layout: a {@link LineBlock} (schema 2, what collectors write) or a single
 * {@link LineEvent} (schema 1, what they wrote before, so that older history can still be replayed).
 */
public final class LineRecords {

  private LineRecords() {}

  /**
   * The record's lines, in order.
   *
   * @throws IOException when it is not JSON, or a block whose lines or offsets do not add up (the message says which)
   */
  public static List<LineEvent> read(byte[] value) throws IOException {
    JsonNode node = Json.mapper().readTree(value);
    if (node == null || !node.isObject()) {
      throw new IOException("not a JSON object");
    }
    if (!node.has("lines")) {
      return java.util.Collections.singletonList(Json.mapper().treeToValue(node, LineEvent.class));
    }
    LineBlock block = Json.mapper().treeToValue(node, LineBlock.class);
    if (block.lines() == null || block.lines().isEmpty()) {
      throw new IOException("a line block without lines");
    }
    if (block.offsetsMs() != null && block.offsetsMs().size() != block.lines().size()) {
      throw new IOException("a line block of " + block.lines().size() + " lines with " + block.offsetsMs().size()
          + " offsets");
    }
    return block.events();
  }

  /** A {@code lines} record's lines, for consumers of the topic; a record that cannot be read is an error. */
  public static org.apache.kafka.common.serialization.Deserializer<List<LineEvent>> deserializer() {
    return (topic, value) -> {
      try {
        return value == null ? List.of() : read(value);
      } catch (IOException e) {
        throw new org.apache.kafka.common.errors.SerializationException("a " + topic + " record: " + e.getMessage(), e);
      }
    };
  }
}
