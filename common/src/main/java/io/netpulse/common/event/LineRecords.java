package io.netpulse.common.event;

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
    // one pass into a shape with both layouts' fields (the processor reads every record: a tree first, then the
    // record from the tree, was a tenth of its time)
    if (!startsAsObject(value)) {
      throw new IOException("not a JSON object");
    }
    Either r = READER.readValue(value);
    if (r == null) {
      throw new IOException("not a JSON object");
    }
    if (!r.hasLines) {
      return java.util.Collections.singletonList(
          new LineEvent(r.schema, r.host, r.source, r.run, r.seq, r.ts, r.line, r.instance, r.epoch, r.gapMs));
    }
    if (r.lines == null || r.lines.isEmpty()) {
      throw new IOException("a line block without lines");
    }
    if (r.offsetsMs != null && r.offsetsMs.size() != r.lines.size()) {
      throw new IOException("a line block of " + r.lines.size() + " lines with " + r.offsetsMs.size() + " offsets");
    }
    return new LineBlock(r.schema, r.host, r.source, r.run, r.seq, r.ts, r.lines, r.offsetsMs, r.instance, r.epoch,
        r.gapMs).events();
  }

  private static final com.fasterxml.jackson.databind.ObjectReader READER = Json.mapper().readerFor(Either.class);

  /** Whether the first byte past whitespace (and a UTF-8 byte order mark, which Jackson skips too) opens an object. */
  private static boolean startsAsObject(byte[] value) {
    int from = value.length >= 3 && value[0] == (byte) 0xEF && value[1] == (byte) 0xBB && value[2] == (byte) 0xBF ? 3 : 0;
    for (int i = from; i < value.length; i++) {
      byte b = value[i];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return b == '{';
      }
    }
    return false;
  }

  /** A {@link LineBlock}'s and a {@link LineEvent}'s fields together: which one a record is shows in {@code lines}. */
  private static final class Either {
    public int schema;
    public String host;
    public String source;
    public String run;
    public long seq;
    public long ts;
    public String line;
    public List<String> lines;
    public List<Integer> offsetsMs;
    public String instance;
    public Long epoch;
    public Long gapMs;
    boolean hasLines;

    @com.fasterxml.jackson.annotation.JsonSetter("lines")
    void lines(List<String> lines) {
      this.lines = lines;
      this.hasLines = true;
    }
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
