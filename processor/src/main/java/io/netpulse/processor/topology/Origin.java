package io.netpulse.processor.topology;

import io.netpulse.common.event.DeadLetter;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Where an input record was read, so that its dead letter points at the original (a truncated copy is only a
 * copy).
 *
 * @param topic     topic it was read from
 * @param partition its partition, null where the context has none (a punctuation)
 * @param offset    its offset, null likewise
 */
public record Origin(String topic, Integer partition, Long offset) {

  public static Origin of(Optional<RecordMetadata> metadata, String topic) {
    return metadata.map(m -> new Origin(m.topic(), m.partition(), m.offset())).orElse(new Origin(topic, null, null));
  }

  public DeadLetter deadLetter(String key, byte[] raw, String reason) {
    return DeadLetter.of(topic, partition, offset, key, raw, reason, System.currentTimeMillis());
  }
}
