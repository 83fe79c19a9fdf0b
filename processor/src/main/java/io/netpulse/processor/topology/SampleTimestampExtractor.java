package io.netpulse.processor.topology;

import io.netpulse.common.event.Sample;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Windows are in the sampler's time (the time printed on the row), not the time the line reached
 * Kafka, so a late-delivered row still lands in the second it describes.
 */
public final class SampleTimestampExtractor implements TimestampExtractor {

  @Override
  public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
    if (record.value() instanceof Sample s && s.ts() > 0) {
      return s.ts();
    }
    return record.timestamp();
  }
}
