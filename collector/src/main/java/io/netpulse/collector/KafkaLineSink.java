package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.JsonSerde;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends lines to the {@code lines} topic keyed by host: idempotent, acks=all, in order. */
public final class KafkaLineSink implements LineSink {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaLineSink.class);

  private final KafkaProducer<String, LineEvent> producer;
  private final String topic;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  public KafkaLineSink(String bootstrapServers, String topic) {
    this.topic = topic;
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5); // ordered with idempotence
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    this.producer = new KafkaProducer<>(p, new StringSerializer(), JsonSerde.of(LineEvent.class).serializer());
  }

  @Override
  public void send(LineEvent line) {
    producer.send(new ProducerRecord<>(topic, null, line.ts(), line.host(), line), (meta, error) -> {
      if (error == null) {
        sent.incrementAndGet();
      } else if (failed.getAndIncrement() == 0) {
        LOG.warn("cannot send lines to {}: {}", topic, error.getMessage());
      }
    });
  }

  public long sent() {
    return sent.get();
  }

  public long failed() {
    return failed.get();
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }
}
