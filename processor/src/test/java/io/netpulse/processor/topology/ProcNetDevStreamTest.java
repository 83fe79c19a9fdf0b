package io.netpulse.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.LineBlock;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.Json;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.proc.ProcNetDevParser;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sampler of hosts without sysstat streams {@code cat /proc/net/dev} every second; its rows are cumulative
 * counters, which the parse step turns into rates against each interface's previous row. Lines are the captured
 * fixture's (three real snapshots), stamped as a collector would: with the time each was read.
 */
@Tag("unit")
class ProcNetDevStreamTest {

  private static final Topics TOPICS = Topics.defaults();

  private ParseStepDriver parse;
  private long seq;

  @BeforeEach
  void setUp() {
    parse = new ParseStepDriver(TOPICS, "proc-net-dev-test");
  }

  @AfterEach
  void tearDown() {
    parse.close();
  }

  @Test
  void streamedSnapshotsGiveTheSameRatesAsTheWholeOutputParsedAtOnce() throws Exception {
    List<String> fixture = fixture();
    long ts = 0;
    for (String line : fixture) {
      if (line.startsWith("# ")) {
        ts = Long.parseLong(line.substring(2).strip()); // the time this snapshot was read
        continue;
      }
      send("sut", ts, line);
    }
    List<Sample> streamed = parse.samples.readRecordsToList().stream().map(TestRecord::value).toList();
    List<Sample> batch = new ProcNetDevParser().parse(fixture, ParseContext.streamed(ts)).samples();

    assertThat(parse.dlq.isEmpty()).as("no dead letters").isTrue();
    assertThat(streamed).hasSize(batch.size()).isNotEmpty();
    for (int i = 0; i < batch.size(); i++) {
      Sample b = batch.get(i);
      Sample s = streamed.get(i);
      assertThat(List.of(s.metric(), s.iface(), s.unit(), s.ts())).isEqualTo(List.of(b.metric(), b.iface(), b.unit(), b.ts()));
      assertThat(s.value()).isCloseTo(b.value(), org.assertj.core.data.Offset.offset(1e-6 * Math.max(1, b.value())));
      assertThat(s.host()).isEqualTo("sut");
      assertThat(s.source()).isEqualTo("proc-net-dev");
    }
    // by hand, from the fixture: npp-a's received bytes between its first two snapshots, 1.350 s apart
    Sample rxBps = streamed.stream().filter(x -> x.metric().equals("rx_bps") && x.iface().equals("npp-a"))
        .findFirst().orElseThrow();
    assertThat(rxBps.value()).isCloseTo((counter(fixture, 1, "npp-a") - counter(fixture, 0, "npp-a")) * 8 / 1.350,
        org.assertj.core.data.Offset.offset(1e-3));
  }

  @Test
  void eachHostAndInterfaceKeepsItsOwnBaselineAndALongGapOnlyResetsIt() throws Exception {
    List<String> rows = fixture().stream().filter(l -> l.contains("npp-a:")).toList();
    send("a", 10_000, rows.get(0));
    send("b", 10_000, rows.get(1)); // another host: no rate against host a's row
    assertThat(parse.samples.isEmpty()).isTrue();
    send("a", 11_000, rows.get(1));
    assertThat(parse.samples.readRecordsToList()).extracting(r -> r.value().host()).containsOnly("a").hasSize(4);
    send("a", 11_000 + ProcNetDevRates.MAX_GAP_MS + 1, rows.get(2)); // sampler restarted: baseline only
    assertThat(parse.samples.isEmpty()).isTrue();
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  /**
   * The sampler reads at its start and then on each wall-clock second: its first two readings can be ms apart. A rate
   * over those ms, stamped as a second's, would be a spike; the row gives none, and the next is set against the first.
   */
  @Test
  void aReadingMillisecondsAfterTheLastGivesNoRateAndTheNextIsSetAgainstTheEarlierOne() throws Exception {
    List<String> rows = fixture().stream().filter(l -> l.contains("npp-a:")).toList();
    send("a", 10_995, rows.get(0));
    send("a", 11_000, rows.get(1)); // 5 ms later
    assertThat(parse.samples.isEmpty()).as("no rate over 5 ms").isTrue();
    send("a", 12_000, rows.get(2));
    Sample rxBps = parse.samples.readRecordsToList().stream().map(TestRecord::value)
        .filter(x -> x.metric().equals("rx_bps")).findFirst().orElseThrow();
    List<String> fixture = fixture();
    // against the first reading, over its 1.005 s
    assertThat(rxBps.value()).isCloseTo((counter(fixture, 2, "npp-a") - counter(fixture, 0, "npp-a")) * 8 / 1.005,
        org.assertj.core.data.Offset.offset(1e-3));
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  @Test
  void aCounterThatWentDownIsADeadLetterNotANegativeRate() throws Exception {
    List<String> rows = fixture().stream().filter(l -> l.contains("npp-a:")).toList();
    send("a", 10_000, rows.get(1));
    send("a", 11_000, rows.get(0)); // as after a reboot or a wrap
    assertThat(parse.samples.isEmpty()).isTrue();
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.error()).contains("proc-net-dev").contains("npp-a").contains("went down");
    send("a", 12_000, rows.get(2)); // and the next row has a rate again, against the new baseline
    assertThat(parse.samples.readRecordsToList()).hasSize(4).allMatch(r -> r.value().value() >= 0);
  }

  /**
   * A snapshot as the collector sends it, one record of all its lines, gives the same rates as its lines one by one,
   * and its host's counters go to the changelog once for the record (one value per host, binary), not once per row.
   */
  @Test
  void aSnapshotInOneRecordGivesTheSameRatesWithOneChangelogRecord() throws Exception {
    List<List<String>> snapshots = new java.util.ArrayList<>();
    List<Long> times = new java.util.ArrayList<>();
    for (String line : fixture()) {
      if (line.startsWith("# ")) {
        times.add(Long.parseLong(line.substring(2).strip()));
        snapshots.add(new java.util.ArrayList<>());
      } else if (!snapshots.isEmpty()) {
        snapshots.get(snapshots.size() - 1).add(line);
      }
    }
    for (int i = 0; i < snapshots.size(); i++) {
      for (String line : snapshots.get(i)) {
        send("one-by-one", times.get(i), line);
      }
    }
    List<Sample> oneByOne = parse.samples.readRecordsToList().stream().map(TestRecord::value).toList();
    var changelog = parse.driver.createOutputTopic("proc-net-dev-test-" + ProcNetDevRates.STORE + "-changelog",
        new org.apache.kafka.common.serialization.StringDeserializer(),
        HostReadings.serde(ProcNetDevRates.CODEC).deserializer());
    int rowsSent = (int) snapshots.stream().flatMap(List::stream).filter(l -> l.contains(":")).count();
    assertThat(changelog.getQueueSize()).as("one changelog record per row, sent one per record").isEqualTo(rowsSent);
    changelog.readRecordsToList();

    for (int i = 0; i < snapshots.size(); i++) {
      List<LineEvent> events = new java.util.ArrayList<>();
      for (String line : snapshots.get(i)) {
        events.add(LineEvent.of("blocks", "proc-net-dev", null, seq++, times.get(i), line));
      }
      parse.lines.pipeInput("blocks", Json.bytes(LineBlock.of(events)), times.get(i));
    }
    List<Sample> blocks = parse.samples.readRecordsToList().stream().map(TestRecord::value).toList();
    assertThat(blocks).isNotEmpty().hasSameSizeAs(oneByOne);
    for (int i = 0; i < blocks.size(); i++) {
      assertThat(blocks.get(i).withOrigin("one-by-one", null, "proc-net-dev")).isEqualTo(oneByOne.get(i));
    }
    var written = changelog.readRecordsToList();
    assertThat(written).as("one changelog record per snapshot").hasSize(snapshots.size());
    // the last holds every interface of the host's last snapshot, read back from its binary form
    var last = written.get(written.size() - 1);
    assertThat(last.key()).isEqualTo("blocks");
    assertThat(last.value().keySet()).containsExactlyInAnyOrderElementsOf(snapshots.get(snapshots.size() - 1).stream()
        .filter(l -> l.contains(":")).map(l -> l.substring(0, l.indexOf(':')).strip()).toList());
    assertThat(last.value().values()).allSatisfy(r -> assertThat(r.ts()).isEqualTo(times.get(times.size() - 1)));
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  private void send(String host, long ts, String line) {
    parse.lines.pipeInput(host, Json.bytes(LineEvent.of(host, "proc-net-dev", null, seq++, ts, line)), ts);
  }

  private static List<String> fixture() throws Exception {
    try (InputStream in = ProcNetDevStreamTest.class.getResourceAsStream(
        "/io/netpulse/tools/proc/proc-net-dev-ns.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  /** rx bytes of {@code iface} in the fixture's snapshot {@code k}. */
  private static double counter(List<String> fixture, int k, String iface) {
    List<String> rows = new ArrayList<>(fixture.stream().filter(l -> l.strip().startsWith(iface + ":")).toList());
    return Double.parseDouble(rows.get(k).strip().substring(iface.length() + 1).strip().split("\\s+")[0]);
  }
}
