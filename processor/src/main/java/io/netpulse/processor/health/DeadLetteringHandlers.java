package io.netpulse.processor.health;

import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/** The dead letter an exception handler sends for the input record it gives up on, bounded like every other. */
public final class DeadLetteringHandlers {

  private DeadLetteringHandlers() {}

  /** The Streams configuration key that names the dead-letter topic for the handlers. */
  public static final String TOPIC_CONFIG = "netpulse.dlq.topic";

  static String topic(Map<String, ?> configs) {
    Object topic = configs.get(TOPIC_CONFIG);
    if (topic == null) {
      throw new IllegalStateException(TOPIC_CONFIG + " is not set in the Streams configuration");
    }
    return topic.toString();
  }

  static ProcessorErrors errors(Map<String, ?> configs) {
    Object errors = configs.get(ProcessorErrors.CONFIG);
    return errors instanceof ProcessorErrors e ? e : new ProcessorErrors();
  }

  /** The input record of {@code context} (raw, as read), with {@code reason}. */
  static List<ProducerRecord<byte[], byte[]>> of(String dlqTopic, ErrorHandlerContext context, String reason) {
    byte[] rawKey = context.sourceRawKey();
    String key = rawKey == null ? null : DeadLetter.boundedKey(new String(rawKey, StandardCharsets.UTF_8));
    DeadLetter letter = DeadLetter.of(context.topic(), context.partition() < 0 ? null : context.partition(),
        context.offset() < 0 ? null : context.offset(), key, context.sourceRawValue(), reason,
        System.currentTimeMillis());
    return List.of(new ProducerRecord<>(dlqTopic, null,
        key == null ? null : key.getBytes(StandardCharsets.UTF_8), Json.bytes(letter)));
  }
}
