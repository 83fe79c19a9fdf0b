package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.processor.TestDrivers;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** The parse step alone in a TopologyTestDriver: lines in, samples and dead letters out. */
final class ParseStepDriver implements AutoCloseable {

  final TopologyTestDriver driver;
  final TestInputTopic<String, byte[]> lines;
  final TestOutputTopic<String, Sample> samples;
  final TestOutputTopic<String, DeadLetter> dlq;
  final TestOutputTopic<String, WideSample> metrics;

  ParseStepDriver(Topics topics, String applicationId) {
    driver = TestDrivers.driver(new ParseTopology(topics).build(), applicationId);
    lines = TestDrivers.bytesInput(driver, topics.lines());
    samples = TestDrivers.jsonOutput(driver, topics.samples(), Sample.class);
    dlq = TestDrivers.jsonOutput(driver, topics.dlq(), DeadLetter.class);
    metrics = TestDrivers.jsonOutput(driver, topics.metrics(), WideSample.class);
  }

  @Override
  public void close() {
    driver.close();
  }
}
