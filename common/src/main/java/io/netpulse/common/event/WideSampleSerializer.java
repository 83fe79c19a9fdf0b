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
    writeObject(gen, "tags", w.tags(), (g, v) -> g.writeString(v));
    writeObject(gen, "fields", w.fields(), (g, v) -> g.writeNumber(v.doubleValue()));
    writeObject(gen, "units", w.units(), (g, v) -> g.writeString(encoded(v)));
    gen.writeNumberField("time", w.time());
    gen.writeEndObject();
  }

  /** One of the maps as a JSON object; a null value as null. */
  private static <V> void writeObject(JsonGenerator gen, String name, Map<String, V> map, ValueWriter<V> value)
      throws IOException {
    gen.writeObjectFieldStart(name);
    for (Map.Entry<String, V> e : map.entrySet()) {
      gen.writeFieldName(encoded(e.getKey()));
      if (e.getValue() == null) {
        gen.writeNull();
      } else {
        value.write(gen, e.getValue());
      }
    }
    gen.writeEndObject();
  }

  private interface ValueWriter<V> {
    void write(JsonGenerator gen, V value) throws IOException;
  }
}
