package io.netpulse.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.event.WideSample;
import io.netpulse.common.json.Json;
import io.netpulse.processor.MetricsOutput;
import io.netpulse.processor.TestDrivers;
import io.netpulse.tools.Parsers;
import io.netpulse.tools.parse.ParseContext;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ToolOutputTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final long ENDED = 1_796_014_900_000L;

  private TopologyTestDriver driver;
  private TestInputTopic<String, byte[]> toolOutput;
  /** The samples of the rows on metrics (a tool's figures are one row per instance). */
  private MetricsOutput.View<Sample> samples;
  private MetricsOutput.View<WideSample> rows;
  private TestOutputTopic<String, DeadLetter> dlq;

  @BeforeEach
  void setUp() {
    driver = TestDrivers.driver(new ToolOutputTopology(TOPICS).build(), "tool-output-test");
    toolOutput = TestDrivers.bytesInput(driver, TOPICS.toolOutput());
    MetricsOutput metrics = new MetricsOutput(driver, TOPICS.metrics());
    samples = metrics.samples();
    rows = metrics.rows();
    dlq = TestDrivers.jsonOutput(driver, TOPICS.dlq(), DeadLetter.class);
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  static ToolOutputEvent output(String tool, String command, int exit, String stdout, String stderr) {
    return new ToolOutputEvent(ToolOutputEvent.SCHEMA, "run-1", "tcp_crr", 2, "client-a", "client", tool, "p12866",
        command, exit, stdout, stderr, ENDED - 2000, ENDED);
  }

  private void send(ToolOutputEvent event) {
    toolOutput.pipeInput("run-1", Json.bytes(event));
  }

  @Test
  void netperfCrrOutputBecomesItsTransactionRateKeyedByHost() {
    String stdout = Recorded.output("netperf/netperf-tcp-crr.txt");
    send(output("netperf", "netperf -H 198.18.0.2 -t TCP_CRR -l 2 -- -r 64", 0, stdout, ""));
    List<TestRecord<String, Sample>> out = samples.readRecordsToList();
    Sample rate = out.stream().filter(r -> r.value().metric().equals("trans_per_s")).findFirst().orElseThrow().value();
    assertThat(rate.value()).isEqualTo(10608.61);
    assertThat(rate.host()).isEqualTo("client-a");
    assertThat(rate.run()).isEqualTo("run-1");
    assertThat(rate.source()).isEqualTo("netperf");
    assertThat(rate.instance()).isEqualTo("p12866");
    assertThat(rate.ts()).isEqualTo(ENDED);
    assertThat(out).allMatch(r -> r.key().equals("client-a"));
    // every figure the parser reads in the output, none lost or changed on the way
    List<Sample> parsed = Parsers.forFormat("netperf").parse(stdout.lines().toList(),
        new ParseContext(ZoneOffset.UTC, ENDED, "TCP_CRR")).samples();
    assertThat(out).extracting(r -> r.value().metric(), r -> r.value().value(), r -> r.value().unit())
        .containsExactlyElementsOf(parsed.stream().map(s -> tuple(s.metric(), s.value(), s.unit())).toList());
    assertThat(dlq.isEmpty()).isTrue();
    // the instance's whole-run figures as one record, keyed by host, tagged with the instance
    assertThat(rows.readRecordsToList()).singleElement().satisfies(r -> {
      assertThat(r.key()).isEqualTo("client-a");
      assertThat(r.value().name()).isEqualTo("netperf");
      assertThat(r.value().tags()).containsEntry("instance", "p12866").containsEntry("summary", "true")
          .containsEntry("run", "run-1");
      assertThat(r.value().fields()).containsEntry("trans_per_s", 10608.61).hasSize(parsed.size());
      assertThat(r.value().time()).isEqualTo(ENDED);
    });
    assertThat(driver.producedTopicNames()).as("no samples topic: rows only").containsExactly(TOPICS.metrics());
  }

  @Test
  void bannerlessNetperfTakesItsTestTypeFromTheCommand() {
    send(output("netperf", "netperf -P 0 -H 198.18.0.2 -t TCP_RR -l 2 -- -r 1,1", 0,
        Recorded.output("netperf/netperf-tcp-rr-P0.txt"), ""));
    assertThat(samples.readValuesToList()).extracting(Sample::metric, Sample::value)
        .contains(tuple("trans_per_s", 44445.24));
    assertThat(ToolOutputTopology.netperfTest("netperf -H x -tUDP_STREAM")).isEqualTo("UDP_STREAM");
  }

  @Test
  void failedToolUnknownToolAndNonJsonGoToTheDlqWithTheReason() {
    send(output("netperf", "netperf -t TCP_CRR", 1, "", "establish control: are you sure there is a netserver listening\n"));
    send(output("c1000k", "c1000k 198.18.0.2", 0, "ok", ""));
    toolOutput.pipeInput("run-1", "not json {".getBytes(StandardCharsets.UTF_8));
    send(output("qperf", "qperf 198.18.0.2 tcp_lat", 0, "nothing a parser knows\n", ""));
    List<DeadLetter> dead = dlq.readValuesToList();
    assertThat(dead).hasSize(4);
    assertThat(dead.get(0).error()).contains("netperf on client-a", "exited with status 1", "netserver listening");
    assertThat(dead.get(1).error()).contains("unknown format 'c1000k'");
    assertThat(dead.get(2).error()).startsWith("not a tool-output event");
    assertThat(dead.get(2).value()).isEqualTo("not json {");
    assertThat(dead.get(3).error()).contains("qperf on client-a");
    assertThat(dead).allMatch(d -> d.topic().equals(TOPICS.toolOutput()) && d.key().equals("run-1"));
    assertThat(samples.isEmpty()).isTrue();
  }
}
