package io.netpulse.dashboard;

import io.netpulse.common.Units;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.WideSample;
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

/**
 * Writes 1-s rates as the processor's per-second rows (one {@code net} row per rate on a real metrics topic), bad
 * records on purpose, and other events to their topics, as the pipeline would. A test states what the page should
 * show as {@link RateEvent}s, the shape the dashboard serves them in.
 */
final class RateTraffic implements AutoCloseable {

  private final KafkaProducer<String, byte[]> producer;
  private final String topic;
  private final JsonSerde<WideSample> serde = JsonSerde.of(WideSample.class);

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
        windowEndMs - 1000, windowEndMs, mean, mean, mean, 1);
  }

  /** The processor's row that carries this rate: sar's per-second row of one interface, with this one field. */
  static WideSample row(RateEvent rate) {
    Map<String, String> tags = new java.util.TreeMap<>(Map.of("host", rate.host(), "source", "sar-dev"));
    if (rate.iface() != null) {
      tags.put("interface", rate.iface());
    }
    return new WideSample(WideSample.SCHEMA, "net", tags, Map.of(rate.metric(), rate.mean()),
        Map.of(rate.metric(), rate.unit()), rate.windowStart());
  }

  void send(RateEvent rate) {
    sendRaw(rate.host(), serde.serializer().serialize(topic, row(rate)));
  }

  /**
   * Many rates at once, those of one host, interface and second in one row as sar's are, waiting only for the last
   * acknowledgement (one producer keeps their order per key).
   */
  void sendAll(java.util.List<RateEvent> rates) {
    Map<java.util.List<Object>, WideSample> rows = new java.util.LinkedHashMap<>();
    for (RateEvent rate : rates) {
      rows.merge(java.util.Arrays.asList(rate.host(), rate.iface(), rate.windowStart()), row(rate), (a, b) -> {
        Map<String, Double> fields = new java.util.LinkedHashMap<>(a.fields());
        fields.putAll(b.fields());
        Map<String, String> units = new java.util.LinkedHashMap<>(a.units());
        units.putAll(b.units());
        return new WideSample(a.schema(), a.name(), a.tags(), fields, units, a.time());
      });
    }
    java.util.concurrent.Future<?> last = null;
    for (WideSample row : rows.values()) {
      last = producer.send(new ProducerRecord<>(topic, row.tags().get("host"), serde.serializer().serialize(topic, row)));
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
