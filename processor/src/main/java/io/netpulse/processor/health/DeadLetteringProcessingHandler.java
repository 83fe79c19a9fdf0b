package io.netpulse.processor.health;

import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;

/**
 * An exception thrown while one record is processed sends that record to the dead-letter topic, with the
 * processor step and the exception, and processing goes on. Kafka Streams' default stops the thread; replaced, the
 * thread reads the same record again and fails again: one record would stop a fleet's monitoring.
 */
public final class DeadLetteringProcessingHandler implements ProcessingExceptionHandler {

  private DeadLetteringHandlers handlers;

  @Override
  public void configure(Map<String, ?> configs) {
    handlers = DeadLetteringHandlers.configured(configs);
  }

  @Override
  public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    return Response.resume(handlers.giveUp(context, "processor step " + context.processorNodeId()
        + " failed on this record: " + ProcessorErrors.describe(exception)));
  }
}
