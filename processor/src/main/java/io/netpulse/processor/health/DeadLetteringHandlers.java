package io.netpulse.processor.health;

import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the processor's exception handlers share: where dead letters go, what counts them, and the dead letter
 * itself for the input record a handler gives up on, bounded like every other.
 */
public final class DeadLetteringHandlers {

  /** The Streams configuration key that names the dead-letter topic for the handlers. */
  public static final String TOPIC_CONFIG = "netpulse.dlq.topic";

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetteringHandlers.class);

  final String dlqTopic;
  final ProcessorErrors errors;

  private DeadLetteringHandlers(String dlqTopic, ProcessorErrors errors) {
    this.dlqTopic = dlqTopic;
    this.errors = errors;
  }

  /** From the Streams configuration the handlers are given ({@link #TOPIC_CONFIG}, {@link ProcessorErrors#CONFIG}). */
  static DeadLetteringHandlers configured(Map<String, ?> configs) {
    Object topic = configs.get(TOPIC_CONFIG);
    if (topic == null) {
      throw new IllegalStateException(TOPIC_CONFIG + " is not set in the Streams configuration");
    }
    Object errors = configs.get(ProcessorErrors.CONFIG);
    return new DeadLetteringHandlers(topic.toString(), errors instanceof ProcessorErrors e ? e : new ProcessorErrors());
  }

  /** Counts and logs giving up on the input record of {@code context}, and makes its dead letter. */
  List<ProducerRecord<byte[], byte[]>> giveUp(ErrorHandlerContext context, String reason) {
    errors.deadLettered(reason);
    LOG.warn("{}-{}@{}: {}; the record goes to {} and processing goes on", context.topic(), context.partition(),
        context.offset(), reason, dlqTopic);
    byte[] rawKey = context.sourceRawKey();
    String key = rawKey == null ? null : DeadLetter.boundedKey(new String(rawKey, StandardCharsets.UTF_8));
    DeadLetter letter = DeadLetter.of(context.topic(), context.partition() < 0 ? null : context.partition(),
        context.offset() < 0 ? null : context.offset(), key, context.sourceRawValue(), reason,
        System.currentTimeMillis());
    return List.of(new ProducerRecord<>(dlqTopic, null,
        key == null ? null : key.getBytes(StandardCharsets.UTF_8), Json.bytes(letter)));
  }
}
