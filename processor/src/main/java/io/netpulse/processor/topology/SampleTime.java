package io.netpulse.processor.topology;

import io.netpulse.common.event.Sample;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Re-stamps a sample with the time it describes (the sampler's clock), as
 * {@link SampleTimestampExtractor} does for a reader of the {@code samples} topic: windows and runs
 * go by that time, not by when the line reached Kafka.
 */
public final class SampleTime implements FixedKeyProcessor<String, Sample, Sample> {

  private FixedKeyProcessorContext<String, Sample> context;

  @Override
  public void init(FixedKeyProcessorContext<String, Sample> context) {
    this.context = context;
  }

  @Override
  public void process(FixedKeyRecord<String, Sample> record) {
    Sample s = record.value();
    context.forward(s != null && s.ts() > 0 ? record.withTimestamp(s.ts()) : record);
  }
}
