package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.json.Json;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.processor.TestDrivers;
import io.netpulse.processor.ProcessorTopology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
    driver = TestDrivers.driver(new ProcessorTopology(topics).build(), applicationId);
    lines = TestDrivers.bytesInput(driver, topics.lines());
    runs = TestDrivers.bytesInput(driver, topics.runs());
    toolOutput = TestDrivers.bytesInput(driver, topics.toolOutput());
    steady = TestDrivers.jsonOutput(driver, topics.steady(), SteadyEvent.class);
    results = TestDrivers.jsonOutput(driver, topics.results(), ResultEvent.class);
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
    phase(run, type, phase, ts, steady, null);
  }

  /** The same, with the repetition's plan as the launcher sends it (null: none, as from older launchers). */
  void phase(String run, String type, Phase phase, long ts, RunEvent.Steady steady, RunEvent.Planned planned) {
    RunEvent e = RunEvent.ofRepetition(run, "plan-i", type, 1, phase, ts, null, type, "sut", null)
        .inExecution("plan-i-1", steady).withPlanned(planned);
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
