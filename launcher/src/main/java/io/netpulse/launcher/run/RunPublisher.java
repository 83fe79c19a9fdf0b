package io.netpulse.launcher.run;

import io.netpulse.collector.KafkaLineSink;
import io.netpulse.collector.LineEmitter;
import io.netpulse.collector.ToolOutput;
import io.netpulse.collector.ToolOutputPublisher;
import io.netpulse.common.Topics;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Everything a plan execution writes to Kafka: lifecycle events on {@code runs} (sent synchronously,
 * so the processor sees a phase before the samples that follow it), sampler lines on {@code lines}
 * through the collector's sink, whole tool outputs on {@code tool-output}.
 */
final class RunPublisher implements AutoCloseable {

  private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

  private final Topics topics;
  private final KafkaProducer<String, RunEvent> runs;
  private final KafkaLineSink lines;
  private final ToolOutputPublisher outputs;

  RunPublisher(KafkaConnection kafka, Topics topics) {
    this.topics = topics;
    Properties p = kafka.clientProperties(java.util.Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all"));
    this.runs = new KafkaProducer<>(p, new StringSerializer(), JsonSerde.of(RunEvent.class).serializer());
    this.lines = new KafkaLineSink(kafka, topics.lines());
    this.outputs = new ToolOutputPublisher(kafka, topics.toolOutput());
  }

  void publish(RunEvent event) {
    publish(event, SEND_TIMEOUT);
  }

  /** As {@link #publish(RunEvent)}, waiting at most {@code timeout} for the broker's acknowledgement. */
  void publish(RunEvent event, Duration timeout) {
    try {
      runs.send(new ProducerRecord<>(topics.runs(), null, event.ts(), event.run(), event))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot publish " + event.phase() + " of run " + event.run() + " to "
          + topics.runs() + ": " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted publishing run " + event.run(), e);
    }
  }

  /** Ships each line given to it as a {@code lines} event of {@code host}/{@code source} in {@code run}. */
  LineEmitter lineEmitter(String host, String source, String run) {
    return new LineEmitter(host, source, run, lines, lines.metrics());
  }

  /** As {@link #lineEmitter(String, String, String)} for one of several instances of a tool in the run. */
  LineEmitter lineEmitter(String host, String source, String run, String instance) {
    return new LineEmitter(host, source, run, instance, lines, lines.metrics());
  }

  void publish(ToolOutput output) {
    outputs.publish(output, SEND_TIMEOUT);
  }

  @Override
  public void close() {
    outputs.close();
    lines.close();
    runs.close(Duration.ofSeconds(5));
  }
}
