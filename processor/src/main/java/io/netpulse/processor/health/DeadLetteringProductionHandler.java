package io.netpulse.processor.health;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An output record that cannot be serialized (one over the processor's record limit, see ProcessorSerdes) or
 * that Kafka refuses sends its input record to the dead-letter topic and processing goes on; transient send
 * errors are retried. Under exactly-once a record the producer itself refuses has already failed the
 * transaction, which Streams then aborts and processes again, so the outputs are bounded before they reach the
 * producer; this handler is what keeps at-least-once going and what counts.
 */
public final class DeadLetteringProductionHandler implements ProductionExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetteringProductionHandler.class);

  private DeadLetteringHandlers handlers;

  @Override
  public void configure(Map<String, ?> configs) {
    handlers = DeadLetteringHandlers.configured(configs);
  }

  @Override
  public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
      Exception exception) {
    if (exception instanceof RetriableException) {
      return Response.retry();
    }
    if (handlers.dlqTopic.equals(record.topic())) { // a dead letter that cannot be written must not make another
      String reason = "could not write a dead letter to " + record.topic() + ": " + ProcessorErrors.describe(exception);
      handlers.errors.deadLettered(reason);
      LOG.error("{}-{}@{}: {}; the record is left where it is", context.topic(), context.partition(), context.offset(),
          reason);
      return Response.resume();
    }
    return deadLetter(context, "could not write to " + record.topic(), exception);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
      SerializationExceptionOrigin origin) {
    return deadLetter(context, "could not serialize the " + origin.toString().toLowerCase(java.util.Locale.ROOT)
        + " of an output to " + record.topic(), exception);
  }

  private Response deadLetter(ErrorHandlerContext context, String what, Exception exception) {
    return Response.resume(handlers.giveUp(context, what + " made from this record (processor step "
        + context.processorNodeId() + "): " + ProcessorErrors.describe(exception)));
  }
}
