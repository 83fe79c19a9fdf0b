package io.netpulse.processor.topology;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import io.netpulse.processor.MetricsOutput;
import io.netpulse.processor.TestDrivers;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The parse step alone in a TopologyTestDriver: lines in; rows on {@code metrics} (read as rows, and as the samples
 * they hold, each view on its own) and dead letters out.
 */
final class ParseStepDriver implements AutoCloseable {

  final TopologyTestDriver driver;
  final TestInputTopic<String, byte[]> lines;
  /** The samples of the rows on {@code metrics}, one per value. */
  final MetricsOutput.View<Sample> samples;
  final TestOutputTopic<String, DeadLetter> dlq;
  /** The rows on {@code metrics}. */
  final MetricsOutput.View<WideSample> metrics;

  ParseStepDriver(Topics topics, String applicationId) {
    driver = TestDrivers.driver(new ParseTopology(topics).build(), applicationId);
    lines = TestDrivers.bytesInput(driver, topics.lines());
    MetricsOutput out = new MetricsOutput(driver, topics.metrics());
    samples = out.samples();
    metrics = out.rows();
    dlq = TestDrivers.jsonOutput(driver, topics.dlq(), DeadLetter.class);
  }

  @Override
  public void close() {
    driver.close();
  }
}
