package io.netpulse.common.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Map;

/**
 * A {@link WideSample} written field by field, in the layout Jackson gives a record (its components in order): the
 * same JSON, without the per-entry serializer lookups of Jackson's map serializer, which were a fifth of the
 * processor's time (it writes a row per interface and second, and every 10-s window).
 */
final class WideSampleSerializer extends StdSerializer<WideSample> {

  WideSampleSerializer() {
    super(WideSample.class);
  }

  /**
   * Names and units, encoded once: they come from the catalog's short list, so the map stays small; a name past the
   * cap (never, short of a bug) is written as it is.
   */
  private static final java.util.concurrent.ConcurrentHashMap<String, SerializedString> ENCODED =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final int ENCODED_CAP = 4096;

  private static SerializableString encoded(String s) {
    SerializedString e = ENCODED.get(s);
    if (e == null) {
      e = new SerializedString(s);
      if (ENCODED.size() < ENCODED_CAP) {
        ENCODED.put(s, e);
      }
    }
    return e;
  }

  @Override
  public void serialize(WideSample w, JsonGenerator gen, SerializerProvider provider) throws IOException {
    gen.writeStartObject(w);
    gen.writeNumberField("schema", w.schema());
    gen.writeStringField("name", w.name());
    gen.writeObjectFieldStart("tags");
    for (Map.Entry<String, String> e : w.tags().entrySet()) {
      gen.writeFieldName(encoded(e.getKey()));
      gen.writeString(e.getValue());
    }
    gen.writeEndObject();
    gen.writeObjectFieldStart("fields");
    for (Map.Entry<String, Double> e : w.fields().entrySet()) {
      gen.writeFieldName(encoded(e.getKey()));
      if (e.getValue() == null) {
        gen.writeNull();
      } else {
        gen.writeNumber(e.getValue());
      }
    }
    gen.writeEndObject();
    gen.writeObjectFieldStart("units");
    for (Map.Entry<String, String> e : w.units().entrySet()) {
      gen.writeFieldName(encoded(e.getKey()));
      if (e.getValue() == null) {
        gen.writeNull();
      } else {
        gen.writeString(encoded(e.getValue()));
      }
    }
    gen.writeEndObject();
    gen.writeNumberField("time", w.time());
    gen.writeEndObject();
  }
}
