package io.netpulse.dashboard;

import io.netpulse.common.Units;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.JsonSerde;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes RateEvents (and, on purpose, bad records) to a real rates topic, and other events to theirs, as the pipeline would. */
final class RateTraffic implements AutoCloseable {

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;
  private final JsonSerde<RateEvent> serde = JsonSerde.of(RateEvent.class);

  RateTraffic(String bootstrapServers, String topic) {
    Properties props = new Properties();
    props.putAll(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
        ProducerConfig.LINGER_MS_CONFIG, "0"));
    this.producer = new KafkaProducer<>(props);
    this.topic = topic;
  }

  /** A 1 s rate of one series ending at {@code windowEndMs}. */
  static RateEvent rate(String host, String iface, String metric, long windowEndMs, double mean) {
    String unit = metric.endsWith("_bps") ? Units.BITS_PER_S : Units.PACKETS_PER_S;
    return new RateEvent(RateEvent.SCHEMA, host, iface, metric, unit, "1s",
        windowEndMs - 1000, windowEndMs, mean, mean * 0.98, mean * 1.02, 1);
  }

  void send(RateEvent rate) {
    sendRaw(rate.host() + "/" + rate.iface() + "/" + rate.metric(), serde.serializer().serialize(topic, rate));
  }

  /** Many rates at once, waiting only for the last acknowledgement (one producer keeps their order per key). */
  void sendAll(java.util.List<RateEvent> rates) {
    java.util.concurrent.Future<?> last = null;
    for (RateEvent rate : rates) {
      last = producer.send(new ProducerRecord<>(topic, rate.host() + "/" + rate.iface() + "/" + rate.metric(),
          serde.serializer().serialize(topic, rate)));
    }
    producer.flush();
    try {
      if (last != null) {
        last.get(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot produce to " + topic + ": " + e, e);
    }
  }

  void sendRaw(String key, byte[] value) {
    sendTo(topic, key, value);
  }

  /** Any event, as JSON, to any topic: runs, steady and results as the launcher and processor write them. */
  void event(String toTopic, String key, Object event) {
    sendTo(toTopic, key, io.netpulse.common.json.Json.bytes(event));
  }

  private void sendTo(String toTopic, String key, byte[] value) {
    try {
      producer.send(new ProducerRecord<>(toTopic, key, value)).get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot produce to " + topic + ": " + e, e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
