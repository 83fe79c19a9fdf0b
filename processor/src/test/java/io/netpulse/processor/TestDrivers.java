package io.netpulse.processor;

import io.netpulse.common.json.JsonSerde;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * TopologyTestDrivers as the processor's tests make them: String keys, JSON values (or raw bytes, as the collector
 * sends lines), and a state directory of the driver's own: the default, /tmp/kafka-streams/APP_ID, is shared by
 * every JVM that runs a test with the same application id.
 */
public final class TestDrivers {

  private TestDrivers() {}

  /** A driver for {@code topology}; {@code extra} settings are added to the id, the dummy bootstrap and the state dir. */
  public static TopologyTestDriver driver(Topology topology, String applicationId, Map<String, Object> extra) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092"); // the driver never connects
    try {
      java.nio.file.Path stateDir = Files.createTempDirectory("topology-test-");
      // the driver's close deletes what it kept there but not the directory: 85 were left in /tmp per build
      stateDir.toFile().deleteOnExit();
      props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    props.putAll(extra);
    return new TopologyTestDriver(topology, props);
  }

  public static TopologyTestDriver driver(Topology topology, String applicationId) {
    return driver(topology, applicationId, Map.of());
  }

  /** With the record cache off, so that every update of a table is forwarded, as the tests count them. */
  public static TopologyTestDriver uncached(Topology topology, String applicationId) {
    return driver(topology, applicationId, Map.of(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0));
  }

  public static <V> TestInputTopic<String, V> jsonInput(TopologyTestDriver d, String topic, Class<V> type) {
    return d.createInputTopic(topic, Serdes.String().serializer(), JsonSerde.of(type).serializer());
  }

  public static TestInputTopic<String, byte[]> bytesInput(TopologyTestDriver d, String topic) {
    return d.createInputTopic(topic, Serdes.String().serializer(), Serdes.ByteArray().serializer());
  }

  public static <V> TestOutputTopic<String, V> jsonOutput(TopologyTestDriver d, String topic, Class<V> type) {
    return d.createOutputTopic(topic, Serdes.String().deserializer(), JsonSerde.of(type).deserializer());
  }
}
