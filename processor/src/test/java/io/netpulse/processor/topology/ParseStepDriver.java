package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.JsonSerde;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The parse step alone in a TopologyTestDriver: lines in, samples and dead letters out. */
final class ParseStepDriver implements AutoCloseable {

  final TopologyTestDriver driver;
  final TestInputTopic<String, byte[]> lines;
  final TestOutputTopic<String, Sample> samples;
  final TestOutputTopic<String, DeadLetter> dlq;

  ParseStepDriver(Topics topics, String applicationId) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(new ParseTopology(topics).build(), props);
    lines = driver.createInputTopic(topics.lines(), Serdes.String().serializer(), Serdes.ByteArray().serializer());
    samples = driver.createOutputTopic(topics.samples(), Serdes.String().deserializer(),
        JsonSerde.of(Sample.class).deserializer());
    dlq = driver.createOutputTopic(topics.dlq(), Serdes.String().deserializer(),
        JsonSerde.of(DeadLetter.class).deserializer());
  }

  @Override
  public void close() {
    driver.close();
  }
}
