package io.netpulse.processor.run;

import io.netpulse.common.Topics;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.topology.ProcessorTopology;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The whole processor topology in a TopologyTestDriver, with the topics a run test feeds and reads. */
final class WholeProcessorDriver implements AutoCloseable {

  final TopologyTestDriver driver;
  final TestInputTopic<String, byte[]> lines;
  final TestInputTopic<String, byte[]> runs;
  final TestInputTopic<String, byte[]> toolOutput;
  final TestOutputTopic<String, SteadyEvent> steady;
  final TestOutputTopic<String, ResultEvent> results;

  WholeProcessorDriver(Topics topics, String applicationId) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(new ProcessorTopology(topics).build(), props);
    lines = driver.createInputTopic(topics.lines(), Serdes.String().serializer(), Serdes.ByteArray().serializer());
    runs = driver.createInputTopic(topics.runs(), Serdes.String().serializer(), Serdes.ByteArray().serializer());
    toolOutput = driver.createInputTopic(topics.toolOutput(), Serdes.String().serializer(), Serdes.ByteArray().serializer());
    steady = driver.createOutputTopic(topics.steady(), Serdes.String().deserializer(),
        JsonSerde.of(SteadyEvent.class).deserializer());
    results = driver.createOutputTopic(topics.results(), Serdes.String().deserializer(),
        JsonSerde.of(ResultEvent.class).deserializer());
  }

  @Override
  public void close() {
    driver.close();
  }
}
