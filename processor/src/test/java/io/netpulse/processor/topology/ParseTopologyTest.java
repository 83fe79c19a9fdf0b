package io.netpulse.processor.topology;

import io.netpulse.common.catalog.Sources;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
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
    send(Sources.SAR_DEV, ROW);
    List<TestRecord<String, Sample>> out = parse.samples.readRecordsToList();
    assertThat(out).extracting(TestRecord::key).containsOnly("sut");
    assertThat(out).extracting(r -> r.value().metric()).containsExactlyInAnyOrder("rx_pps", "tx_pps", "rx_bps", "tx_bps");
    Sample rxBps = out.stream().map(TestRecord::value).filter(s -> s.metric().equals("rx_bps")).findFirst().orElseThrow();
    assertThat(rxBps.value()).isEqualTo(99.24 * 8192);
    assertThat(rxBps.unit()).isEqualTo("bit/s");
    assertThat(rxBps.iface()).isEqualTo("npp-a");
    assertThat(rxBps.host()).isEqualTo("sut");
    assertThat(rxBps.run()).isEqualTo("run-1");
    assertThat(rxBps.source()).isEqualTo(Sources.SAR_DEV);
    assertThat(rxBps.ts()).isEqualTo(Instant.parse("2026-11-30T05:13:32Z").toEpochMilli());
    Sample rxPps = out.stream().map(TestRecord::value).filter(s -> s.metric().equals("rx_pps")).findFirst().orElseThrow();
    assertThat(rxPps.value()).isEqualTo(1538.24);
    assertThat(rxPps.unit()).isEqualTo("packets/s");
    assertThat(parse.dlq.isEmpty()).isTrue();
    // the four are one record on metrics, the row; no topic holds them one per value
    assertThat(parse.metrics.readValuesToList()).singleElement().satisfies(row -> {
      assertThat(row.name()).isEqualTo("net");
      assertThat(row.fields()).containsOnlyKeys("rx_pps", "tx_pps", "rx_bps", "tx_bps");
    });
    assertThat(parse.driver.producedTopicNames()).containsExactly(TOPICS.metrics());
  }

  @Test
  void headersAndBlankLinesGiveNothingAndNoDeadLetters() {
    send(Sources.SAR_DEV, "05:13:31        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil");
    send(Sources.SAR_DEV, "");
    assertThat(parse.samples.isEmpty()).isTrue();
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  @Test
  void unreadableRowGoesToTheDlqWholeWithTheReason() {
    String broken = "05:13:32        npp-a   15x8.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33";
    send(Sources.SAR_DEV, broken);
    assertThat(parse.samples.isEmpty()).isTrue();
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.topic()).isEqualTo(TOPICS.lines());
    assertThat(dead.key()).isEqualTo("sut");
    assertThat(dead.value()).contains(broken.replace("\"", "\\\""));
    assertThat(dead.error()).startsWith("sar-dev seq 7: ").contains("rxpck/s");
  }

  @Test
  void aBlockOfLinesGivesWhatItsLinesGaveOneRecordEachAndABadLineGoesToTheDlqAloneReplayable() throws Exception {
    String header = "05:13:31        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil";
    String lo = "05:13:32           lo      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00";
    String broken = ROW.replace("1538.24", "15x8.24");
    List<LineEvent> lines = new java.util.ArrayList<>();
    String[] text = {"", header, lo, ROW, broken, ROW.replace("npp-a", "npp-b")};
    for (int i = 0; i < text.length; i++) {
      lines.add(new LineEvent(LineEvent.SCHEMA, "sut", Sources.SAR_DEV, "run-1", 40 + i, RECEIVED + (i == 5 ? 3 : 0),
          text[i], null, 1_700_000_000_000L, i == 0 ? 900L : null));
    }
    for (LineEvent line : lines) {
      parse.lines.pipeInput("sut", Json.bytes(line), RECEIVED);
    }
    List<Sample> oneEach = parse.samples.readValuesToList();
    List<DeadLetter> deadOneEach = parse.dlq.readValuesToList();

    List<io.netpulse.common.event.WideSample> wideOneEach = parse.metrics.readValuesToList();

    parse.lines.pipeInput("sut", Json.bytes(io.netpulse.common.event.LineBlock.of(lines)), RECEIVED);
    assertThat(parse.samples.readValuesToList()).hasSize(12).isEqualTo(oneEach);
    // one wide record per interface row of the second (lo, npp-a, npp-b), holding exactly the samples
    List<TestRecord<String, io.netpulse.common.event.WideSample>> wide = parse.metrics.readRecordsToList();
    assertThat(wide).extracting(TestRecord::key).containsOnly("sut");
    assertThat(wide).extracting(r -> r.value().tags().get("interface")).containsExactly("lo", "npp-a", "npp-b");
    assertThat(wide).extracting(r -> r.value().name()).containsOnly("net");
    assertThat(wide.get(1).value().fields()).containsExactly(java.util.Map.entry("rx_pps", 1538.24),
        java.util.Map.entry("tx_pps", 8058.82), java.util.Map.entry("rx_bps", 99.24 * 8192),
        java.util.Map.entry("tx_bps", 467847.96 * 8192));
    assertThat(wide.stream().flatMap(r -> r.value().samples().stream()).toList()).isEqualTo(oneEach);
    assertThat(wide.stream().map(TestRecord::value).toList()).as("line by line, the same records")
        .isEqualTo(wideOneEach);
    DeadLetter dead = parse.dlq.readValue();
    assertThat(parse.dlq.isEmpty()).isTrue();
    assertThat(dead.error()).isEqualTo(deadOneEach.get(0).error().replace("seq 44: ",
        "seq 44 (line 5 of 6 of the block from seq 40): "));
    assertThat(dead.error()).startsWith("sar-dev seq 44 (line 5 of 6 of the block from seq 40): ").contains("rxpck/s");
    // the dead letter holds the bad line as the one-line record it would have been: replayed, it reads the same
    assertThat(Json.read(dead.value().getBytes(StandardCharsets.UTF_8), LineEvent.class)).isEqualTo(lines.get(4));
    assertThat(dead.value()).isEqualTo(deadOneEach.get(0).value());
  }

  @Test
  void aBlockWhoseOffsetsDoNotMatchItsLinesGoesToTheDlqWhole() {
    String block = "{\"schema\":2,\"host\":\"sut\",\"source\":\"sar-dev\",\"seq\":3,\"ts\":" + RECEIVED
        + ",\"lines\":[\"a\",\"b\"],\"offsetsMs\":[0]}";
    parse.lines.pipeInput("sut", block.getBytes(StandardCharsets.UTF_8), RECEIVED);
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.error()).isEqualTo("not a line event: a line block of 2 lines with 1 offsets");
    assertThat(dead.value()).isEqualTo(block);
    assertThat(parse.samples.isEmpty()).isTrue();
  }

  @Test
  void notJsonAndUnknownSourceGoToTheDlqAndTheNextLineStillParses() {
    parse.lines.pipeInput("sut", "not json at all".getBytes(StandardCharsets.UTF_8), RECEIVED);
    send("no-such-tool", ROW);
    send(Sources.SAR_DEV, ROW);
    List<DeadLetter> dead = parse.dlq.readValuesToList();
    assertThat(dead).hasSize(2);
    assertThat(dead.get(0).error()).startsWith("not a line event");
    assertThat(dead.get(0).value()).isEqualTo("not json at all");
    assertThat(dead.get(1).error()).isEqualTo("no line parser for source 'no-such-tool'");
    assertThat(parse.samples.readValuesToList()).hasSize(4);
  }

  @Test
  void aLineTooLargeToCopyWholeGoesToTheDlqTruncatedWithItsSizeOffsetAndDigest() throws Exception {
    // 600 KB of quote characters: escaped, the whole record would be 1.2 MB, over Kafka's 1 MiB request limit
    byte[] raw = Json.bytes(LineEvent.of("sut", Sources.SAR_DEV, null, 8, RECEIVED, "\"".repeat(600_000)));
    send(Sources.SAR_DEV, ROW); // offset 0
    parse.lines.pipeInput("sut", raw, RECEIVED); // offset 1
    send(Sources.SAR_DEV, ROW);
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.truncated()).isTrue();
    assertThat(dead.valueBytes()).isEqualTo(raw.length);
    assertThat(dead.valueSha256()).isEqualTo(java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("SHA-256").digest(raw)));
    assertThat(dead.partition()).isEqualTo(0);
    assertThat(dead.offset()).isEqualTo(1L);
    assertThat(dead.value()).hasSize(DeadLetter.MAX_VALUE_BYTES)
        .isEqualTo(new String(raw, 0, DeadLetter.MAX_VALUE_BYTES, StandardCharsets.UTF_8));
    assertThat(Json.bytes(dead).length).as("the dead letter as written").isLessThan(1_000_000);
    assertThat(dead.error()).startsWith("sar-dev seq 8: ");
    assertThat(parse.samples.readValuesToList()).as("the lines around it still parse").hasSize(8);
  }

  @Test
  void aHugeKeyOrHostNameGoesToTheDlqBeforeItCanReachAnyKeyOrStore() {
    String huge = "h".repeat(900_000);
    parse.lines.pipeInput(huge, Json.bytes(LineEvent.of("sut", Sources.SAR_DEV, null, 1, RECEIVED, ROW)), RECEIVED);
    parse.lines.pipeInput("sut", Json.bytes(LineEvent.of("x".repeat(5000), Sources.SAR_DEV, null, 2, RECEIVED, ROW)), RECEIVED);
    List<TestRecord<String, DeadLetter>> dead = parse.dlq.readRecordsToList();
    assertThat(dead).hasSize(2);
    assertThat(dead.get(0).key()).as("the dead letter's own key").hasSize(DeadLetter.MAX_KEY_BYTES);
    assertThat(dead.get(0).value().key()).hasSize(DeadLetter.MAX_KEY_BYTES);
    assertThat(dead.get(0).value().truncated()).isTrue();
    assertThat(dead.get(0).value().error()).isEqualTo("record key of 900000 characters (at most 8192)");
    assertThat(dead.get(1).value().error()).isEqualTo("line event with field host of 5000 characters (at most 4096)");
    assertThat(dead.get(1).value().truncated()).isFalse();
    assertThat(parse.samples.isEmpty()).isTrue();
  }

  @Test
  void invalidUtf8IsKeptByItsDigestAndSize() {
    byte[] raw = {'{', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '}'};
    parse.lines.pipeInput("sut", raw, RECEIVED);
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.error()).startsWith("not a line event");
    assertThat(dead.valueBytes()).isEqualTo(5);
    assertThat(dead.valueSha256()).hasSize(64);
  }
}
