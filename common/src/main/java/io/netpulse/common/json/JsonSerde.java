package io.netpulse.common.json;

import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serde for an event record, JSON on the wire. */
public final class JsonSerde<T> implements Serde<T> {

  private final Class<T> type;
  private final Serializer<T> serializer;
  private final Deserializer<T> deserializer;

  public JsonSerde(Class<T> type) {
    this(type, Integer.MAX_VALUE);
  }

  private JsonSerde(Class<T> type, int maxBytes) {
    this.type = type;
    this.serializer = (topic, data) -> {
      if (data == null) {
        return null;
      }
      byte[] bytes = Json.bytes(data);
      if (bytes.length > maxBytes) {
        throw new SerializationException("a " + type.getSimpleName() + " of " + bytes.length + " bytes for " + topic
            + " is over the " + maxBytes + "-byte record limit");
      }
      return bytes;
    };
    this.deserializer = this::deserialize;
  }

  public static <T> JsonSerde<T> of(Class<T> type) {
    return new JsonSerde<>(type);
  }

  /**
   * The same serde, whose serializer refuses (SerializationException) a value over {@code maxBytes}: a client can
   * then deal with that one record, where a producer that is sent it fails it with RecordTooLargeException, and a
   * transactional producer fails its whole transaction with it.
   */
  public JsonSerde<T> limitedTo(int maxBytes) {
    return new JsonSerde<>(type, maxBytes);
  }

  public T deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    try {
      return Json.read(data, type);
    } catch (IOException e) {
      throw new SerializationException(
          "not a " + type.getSimpleName() + " on " + topic + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Serializer<T> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<T> deserializer() {
    return deserializer;
  }
}
