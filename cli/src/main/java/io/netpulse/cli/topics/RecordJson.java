package io.netpulse.cli.topics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record as one JSON line: where it is (topic, partition, offset, timestamp in epoch ms), its key as text and its
 * value as JSON when it is JSON (netpulse's events are), else as text, so that {@code jq} can take the output.
 */
final class RecordJson {

  private RecordJson() {}

  static String of(ConsumerRecord<byte[], byte[]> r) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("topic", r.topic());
    line.put("partition", r.partition());
    line.put("offset", r.offset());
    line.put("timestamp", r.timestamp());
    line.put("key", r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8));
    line.set("value", value(r.value()));
    try {
      return Json.mapper().writeValueAsString(line);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings and numbers always serialises", e);
    }
  }

  private static JsonNode value(byte[] value) {
    if (value == null) {
      return Json.mapper().nullNode();
    }
    try {
      JsonNode tree = Json.mapper().readTree(value);
      if (tree != null && (tree.isObject() || tree.isArray())) {
        return tree;
      }
    } catch (IOException notJson) {
      // a raw line or another producer's bytes: shown as text below
    }
    return Json.mapper().getNodeFactory().textNode(new String(value, StandardCharsets.UTF_8));
  }
}
