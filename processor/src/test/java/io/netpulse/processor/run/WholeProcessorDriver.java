package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.json.Json;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.json.JsonSerde;
import io.netpulse.processor.topology.ProcessorTopology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

  /** The value of the last result for {@code metric} on {@code results} (it must have one). */
  double latestValue(String metric) {
    ResultEvent last = null;
    for (ResultEvent r : results.readValuesToList()) {
      if (r.metric().equals(metric)) {
        last = r;
      }
    }
    assertThat(last).as("a result for " + metric).isNotNull();
    return last.values().get(1);
  }

  /** Repetition 1 of a {@code type} test of plan-i (SUT "sut") enters {@code phase} at {@code ts}. */
  void phase(String run, String type, Phase phase, long ts, RunEvent.Steady steady) {
    RunEvent e = new RunEvent(RunEvent.SCHEMA, run, "plan-i", type, 1, phase, ts, null, type, "sut", null)
        .inExecution("plan-i-1", steady);
    runs.pipeInput(run, Json.bytes(e), ts);
  }

  /** A fixture beside the run tests, as text. */
  static String fixture(String name) {
    try (InputStream in = WholeProcessorDriver.class.getResourceAsStream("/io/netpulse/processor/run/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.close();
  }
}
