package io.netpulse.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ParseTopologyTest {

  private static final Topics TOPICS = Topics.defaults();
  // captured from `LC_ALL=C sar -n DEV 1` on this machine (see parse/sar fixtures)
  private static final String ROW =
      "05:13:32        npp-a   1538.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33";
  private static final long RECEIVED = Instant.parse("2026-11-30T05:13:32.400Z").toEpochMilli();

  private ParseStepDriver parse;

  @BeforeEach
  void setUp() {
    parse = new ParseStepDriver(TOPICS, "parse-test");
  }

  @AfterEach
  void tearDown() {
    parse.close();
  }

  private void send(String source, String line) {
    parse.lines.pipeInput("sut", Json.bytes(LineEvent.of("sut", source, "run-1", 7, RECEIVED, line)), RECEIVED);
  }

  @Test
  void sarRowBecomesFourSamplesKeyedByHostWithExactUnits() {
    send("sar-dev", ROW);
    List<TestRecord<String, Sample>> out = parse.samples.readRecordsToList();
    assertThat(out).extracting(TestRecord::key).containsOnly("sut");
    assertThat(out).extracting(r -> r.value().metric()).containsExactlyInAnyOrder("rx_pps", "tx_pps", "rx_bps", "tx_bps");
    Sample rxBps = out.stream().map(TestRecord::value).filter(s -> s.metric().equals("rx_bps")).findFirst().orElseThrow();
    assertThat(rxBps.value()).isEqualTo(99.24 * 8192);
    assertThat(rxBps.unit()).isEqualTo("bit/s");
    assertThat(rxBps.iface()).isEqualTo("npp-a");
    assertThat(rxBps.host()).isEqualTo("sut");
    assertThat(rxBps.run()).isEqualTo("run-1");
    assertThat(rxBps.source()).isEqualTo("sar-dev");
    assertThat(rxBps.ts()).isEqualTo(Instant.parse("2026-11-30T05:13:32Z").toEpochMilli());
    Sample rxPps = out.stream().map(TestRecord::value).filter(s -> s.metric().equals("rx_pps")).findFirst().orElseThrow();
    assertThat(rxPps.value()).isEqualTo(1538.24);
    assertThat(rxPps.unit()).isEqualTo("packets/s");
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  @Test
  void headersAndBlankLinesGiveNothingAndNoDeadLetters() {
    send("sar-dev", "05:13:31        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil");
    send("sar-dev", "");
    assertThat(parse.samples.isEmpty()).isTrue();
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  @Test
  void unreadableRowGoesToTheDlqWholeWithTheReason() {
    String broken = "05:13:32        npp-a   15x8.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33";
    send("sar-dev", broken);
    assertThat(parse.samples.isEmpty()).isTrue();
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.topic()).isEqualTo(TOPICS.lines());
    assertThat(dead.key()).isEqualTo("sut");
    assertThat(dead.value()).contains(broken.replace("\"", "\\\""));
    assertThat(dead.error()).startsWith("sar-dev seq 7: ").contains("rxpck/s");
  }

  @Test
  void notJsonAndUnknownSourceGoToTheDlqAndTheNextLineStillParses() {
    parse.lines.pipeInput("sut", "not json at all".getBytes(StandardCharsets.UTF_8), RECEIVED);
    send("no-such-tool", ROW);
    send("sar-dev", ROW);
    List<DeadLetter> dead = parse.dlq.readValuesToList();
    assertThat(dead).hasSize(2);
    assertThat(dead.get(0).error()).startsWith("not a line event");
    assertThat(dead.get(0).value()).isEqualTo("not json at all");
    assertThat(dead.get(1).error()).isEqualTo("no line parser for source 'no-such-tool'");
    assertThat(parse.samples.readValuesToList()).hasSize(4);
  }
}
