package io.netpulse.common.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one ObjectMapper of the project: events travel as JSON. */
public final class Json {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // newer producers may add fields
          // the shortest digits that read back as the same double (Schubfach), as Double.toString gives from Java 19;
          // Java 17's takes several times as long, and the processor writes four values per row
          .enable(com.fasterxml.jackson.core.StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
          .build();

  private Json() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String text(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static <T> T read(byte[] data, Class<T> type) throws IOException {
    return MAPPER.readValue(data, type);
  }
}
