package io.netpulse.processor.topology;

import java.util.List;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Reads raw input records (bytes, so that anything reaches the DLQ) into zero or more outcomes, with the record's
 * origin at hand for dead letters: a flatMapValues that knows its partition and offset.
 */
public final class RawRecordReader<V> implements FixedKeyProcessor<String, byte[], V> {

  /** One raw record to its outcomes. */
  @FunctionalInterface
  public interface Read<V> {
    List<V> read(String key, byte[] raw, Origin origin);
  }

  private final String topic;
  private final Read<V> read;
  private FixedKeyProcessorContext<String, V> context;

  private RawRecordReader(String topic, Read<V> read) {
    this.topic = topic;
    this.read = read;
  }

  /** @param topic the input topic, named in dead letters where the record's own metadata is missing */
  public static <V> RawRecordReader<V> of(String topic, Read<V> read) {
    return new RawRecordReader<>(topic, read);
  }

  @Override
  public void init(FixedKeyProcessorContext<String, V> context) {
    this.context = context;
  }

  @Override
  public void process(FixedKeyRecord<String, byte[]> record) {
    for (V outcome : read.read(record.key(), record.value(), Origin.of(context.recordMetadata(), topic))) {
      context.forward(record.withValue(outcome));
    }
  }
}
