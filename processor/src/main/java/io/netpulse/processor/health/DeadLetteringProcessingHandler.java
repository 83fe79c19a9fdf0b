package io.netpulse.processor.health;

import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exception thrown while one record is processed sends that record to the dead-letter topic, with the
 * processor step and the exception, and processing goes on. Kafka Streams' default stops the thread; replaced, the
 * thread reads the same record again and fails again: one record would stop a fleet's monitoring.
 */
public final class DeadLetteringProcessingHandler implements ProcessingExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetteringProcessingHandler.class);

  private String dlqTopic;
  private ProcessorErrors errors;

  @Override
  public void configure(Map<String, ?> configs) {
    dlqTopic = DeadLetteringHandlers.topic(configs);
    errors = DeadLetteringHandlers.errors(configs);
  }

  @Override
  public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    String reason = "processor step " + context.processorNodeId() + " failed on this record: "
        + ProcessorErrors.describe(exception);
    errors.deadLettered(reason);
    LOG.warn("{}-{}@{}: {}; the record goes to {} and processing goes on", context.topic(), context.partition(),
        context.offset(), reason, dlqTopic);
    return Response.resume(DeadLetteringHandlers.of(dlqTopic, context, reason));
  }
}
