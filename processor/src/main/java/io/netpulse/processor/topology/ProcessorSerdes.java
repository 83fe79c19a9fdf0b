package io.netpulse.processor.topology;

import io.netpulse.common.json.JsonSerde;

/**
 * The serdes of everything the processor writes: topics, repartitions and state-store changelogs. A value over
 * {@link #MAX_RECORD_BYTES} fails in the serializer, where the production exception handler dead-letters it and
 * the processor goes on; handed to the producer it would fail with RecordTooLargeException, which under
 * exactly-once aborts the transaction, and the task reads the same record again, forever.
 */
public final class ProcessorSerdes {

  /** Under Kafka's default 1 MiB max.request.size and message.max.bytes, with room for the key and headers. */
  public static final int MAX_RECORD_BYTES = 900 * 1024;

  private ProcessorSerdes() {}

  public static <T> JsonSerde<T> json(Class<T> type) {
    return JsonSerde.of(type).limitedTo(MAX_RECORD_BYTES);
  }
}
