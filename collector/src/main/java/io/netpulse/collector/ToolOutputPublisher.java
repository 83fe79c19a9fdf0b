package io.netpulse.collector;

import io.netpulse.common.json.JsonSerde;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes whole tool outputs to the {@code tool-output} topic keyed by run: idempotent, acks=all, and synchronous,
 * because a run's outputs are few and the caller wants to know they are stored before it reports the run done.
 */
public final class ToolOutputPublisher implements AutoCloseable {

  /** Longer stdout/stderr is cut (keeping the end, where tools print summaries) to stay under Kafka's 1 MB limit. */
  public static final int MAX_TEXT_CHARS = 256 * 1024;

  private final String topic;
  private final KafkaProducer<String, ToolOutput> producer;

  public ToolOutputPublisher(KafkaConnection kafka, String topic) {
    this.topic = topic;
    Properties p = kafka.clientProperties(Map.of(
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"));
    this.producer = new KafkaProducer<>(p, new StringSerializer(), JsonSerde.of(ToolOutput.class).serializer());
  }

  /** Sends and waits for the ack; throws {@link IllegalStateException} naming the run and tool on failure. */
  public RecordMetadata publish(ToolOutput output, Duration timeout) {
    ToolOutput cut = new ToolOutput(output.schema(), output.run(), output.test(), output.repetition(), output.host(),
        output.role(), output.tool(), output.instance(), output.command(), output.exit(), keepEnd(output.stdout()),
        keepEnd(output.stderr()), output.started(), output.ended());
    try {
      return producer.send(new ProducerRecord<>(topic, null, output.ended(), output.run(), cut))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot publish output of " + output.tool() + " (run " + output.run() + ", host "
          + output.host() + ") to " + topic + ": " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted publishing output of " + output.tool(), e);
    }
  }

  static String keepEnd(String text) {
    if (text == null || text.length() <= MAX_TEXT_CHARS) {
      return text;
    }
    int cut = text.length() - MAX_TEXT_CHARS;
    return "[first " + cut + " chars cut]\n" + text.substring(cut);
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
