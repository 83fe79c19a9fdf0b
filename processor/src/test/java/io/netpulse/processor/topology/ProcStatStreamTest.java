package io.netpulse.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.DeadLetter;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.Json;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.proc.ProcStatParser;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CPU sampler streams the {@code cpu} lines of {@code /proc/stat} every second; each holds cumulative ticks, which
 * the parse step sets against the same host's and CPU's previous line. Lines are the captured fixture's, stamped as
 * the launcher stamps them: with the time each snapshot was read.
 */
@Tag("unit")
class ProcStatStreamTest {

  private ParseStepDriver parse;
  private long seq;

  @BeforeEach
  void setUp() {
    parse = new ParseStepDriver(Topics.defaults(), "proc-stat-test");
  }

  @AfterEach
  void tearDown() {
    parse.close();
  }

  @Test
  void streamedLinesGiveTheSameUseAsTheWholeOutputParsedAtOnce() throws Exception {
    List<String> fixture = fixture("proc-stat-full.txt"); // intr, ctxt, … lines streamed too: they give nothing
    long ts = 0;
    for (String line : fixture) {
      if (line.startsWith("# ")) {
        ts = Long.parseLong(line.substring(2).strip());
        continue;
      }
      send("sut", "run-1", ts, line);
    }
    List<Sample> streamed = parse.samples.readRecordsToList().stream().map(TestRecord::value).toList();
    List<Sample> batch = new ProcStatParser().parse(fixture, ParseContext.streamed(ts)).samples();
    assertThat(parse.dlq.isEmpty()).as("no dead letters").isTrue();
    assertThat(streamed).hasSize(batch.size()).hasSize(18);
    for (int i = 0; i < batch.size(); i++) {
      Sample b = batch.get(i);
      Sample s = streamed.get(i);
      assertThat(List.of(s.metric(), s.iface(), s.unit(), s.ts())).isEqualTo(List.of(b.metric(), b.iface(), b.unit(),
          b.ts()));
      assertThat(s.value()).isCloseTo(b.value(), within(1e-9));
      assertThat(s.host()).isEqualTo("sut");
      assertThat(s.run()).isEqualTo("run-1");
      assertThat(s.source()).isEqualTo("proc-stat");
    }
  }

  @Test
  void aNewRunsFirstLineAndOneAfterALongGapOnlySetTheBaseline() throws Exception {
    List<String> cpu1 = fixture("proc-stat-cpu1-burner.txt").stream().filter(l -> l.startsWith("cpu1 ")).toList();
    send("a", "run-1", 10_000, cpu1.get(0));
    send("b", "run-1", 10_000, cpu1.get(1)); // another host: nothing against host a's line
    assertThat(parse.samples.isEmpty()).isTrue();
    send("a", "run-1", 11_000, cpu1.get(1));
    assertThat(parse.samples.readValuesToList()).extracting(Sample::host).containsOnly("a").hasSize(3);
    // the next repetition's sampler: the time between the two is set-up, not this run's
    send("a", "run-2", 12_000, cpu1.get(2));
    assertThat(parse.samples.isEmpty()).isTrue();
    send("a", "run-2", 12_000 + 5_001, cpu1.get(3)); // a sampler restarted after more than 5 s: baseline only
    assertThat(parse.samples.isEmpty()).isTrue();
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  /** The sampler's first two readings can be ms apart: the second gives nothing, the third is set against the first. */
  @Test
  void aLineMillisecondsAfterTheLastGivesNothingAndTheNextIsSetAgainstTheEarlierOne() throws Exception {
    List<String> cpu1 = fixture("proc-stat-cpu1-burner.txt").stream().filter(l -> l.startsWith("cpu1 ")).toList();
    send("a", "run-1", 10_995, cpu1.get(0));
    send("a", "run-1", 11_000, cpu1.get(0)); // 5 ms later, the same ticks: no dead letter either
    assertThat(parse.samples.isEmpty()).isTrue();
    send("a", "run-1", 12_000, cpu1.get(1));
    // cpu1 ran a busy loop pinned to it: 100 % busy, against the first line
    assertThat(parse.samples.readValuesToList()).filteredOn(x -> x.metric().equals("cpu_busy_pct"))
        .extracting(Sample::value, Sample::ts).containsExactly(org.assertj.core.groups.Tuple.tuple(100.0, 12_000L));
    assertThat(parse.dlq.isEmpty()).isTrue();
  }

  @Test
  void timeThatWentDownIsADeadLetter() throws Exception {
    List<String> all = fixture("proc-stat-cpu1-burner.txt").stream().filter(l -> l.startsWith("cpu ")).toList();
    send("a", null, 10_000, all.get(1));
    send("a", null, 11_000, all.get(0)); // as after a reboot
    assertThat(parse.samples.isEmpty()).isTrue();
    DeadLetter dead = parse.dlq.readValue();
    assertThat(dead.error()).contains("proc-stat").contains("all").contains("went down");
    send("a", null, 12_000, all.get(2)); // against the new baseline again
    assertThat(parse.samples.readValuesToList()).hasSize(3).allMatch(s -> s.value() >= 0 && s.value() <= 100);
  }

  private void send(String host, String run, long ts, String line) {
    parse.lines.pipeInput(host, Json.bytes(LineEvent.of(host, "proc-stat", run, seq++, ts, line)), ts);
  }

  private static List<String> fixture(String name) throws Exception {
    try (InputStream in = ProcStatStreamTest.class.getResourceAsStream(
        "/io/netpulse/tools/proc/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }
}
