package io.netpulse.processor.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.Topics;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.RunEvent;
import io.netpulse.common.event.RunEvent.Phase;
import io.netpulse.common.event.SteadyEvent;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * iperf_bandwidth's sender_bps through the whole processor: a real {@code iperf -c -i 1 --sum-only -f k -P 2
 * -b 2048M} client's rows (captured on loopback with each row's arrival time, see the fixtures' README), streamed
 * on {@code lines} with its instance, settle as a per-second series, and value the repetition when the launcher
 * stopped the client before its total row counted; iperf's own total wins when its output arrives.
 */
@Tag("unit")
class IperfInterimTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final Pattern ROW = Pattern.compile("^(\\d+)\t\\[SUM-\\d+\\]\\s+(\\S+)-(\\S+) sec\\s+\\d+ KBytes\\s+(\\d+) Kbits/sec");
  private static final RunEvent.Steady STEADY = new RunEvent.Steady(3_000, 0.05, 0.005);

  private WholeProcessorDriver driver;

  @BeforeEach
  void setUp() {
    driver = new WholeProcessorDriver(TOPICS, "iperf-interim-test");
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  @Test
  void stoppedEarlyTheSenderRateIsTheMeanOfItsSecondsOverTheWindowAndTheStopsTotalRowIsIgnored() {
    String fixture = "iperf-sum-only-P2-term.txt";
    List<String> all = WholeProcessorDriver.fixture(fixture).lines().toList();
    List<Row> rows = rows(fixture);
    long t0 = rows.get(0).arrived() - 1_000; // the client started a second before its first row
    phase("run-stop", Phase.WARMUP, t0);
    all.forEach(l -> line("run-stop", l));
    List<SteadyEvent> events = driver.steady.readValuesToList();
    assertThat(events).as("per-second sums of the client's rows settle").isNotEmpty();
    SteadyEvent settled = events.get(0);
    assertThat(settled.metric()).isEqualTo("sender_bps");
    assertThat(settled.host()).isNull();
    assertThat(settled.unit()).isEqualTo("bit/s");
    assertThat(settled.value()).isCloseTo(4_294_967e3, within(0.001 * 4_294_967e3));

    // measured from 2 s to the stop at 6.5 s (SIGTERM): the window ends inside the last, partial row
    long start = t0 + 2_000;
    long end = rows.get(rows.size() - 1).arrived();
    phase("run-stop", Phase.MEASURING, start);
    phase("run-stop", Phase.STOPPING, end);
    double value = driver.latestValue("sender_bps");
    assertThat(value).isCloseTo(meanByHand(rows, start, end), within(1.0));
    // the rows from 2 s: four whole seconds at 4294967 kbit/s and 0.54 s at 4291038: not the run's total row
    // (4294485, from 0 and so with the first, slower second), which a stopped client prints too
    assertThat(value).isCloseTo((4 * 4_294_967e3 + 0.536 * 4_291_038e3) / 4.536, within(0.0002 * value));
  }

  @Test
  void overAWholeRunTheSecondsAgreeWithIperfsTotalAndTheTotalWinsWhenItsOutputArrives() {
    String fixture = "iperf-sum-only-P2-full.txt";
    List<Row> rows = rows(fixture);
    long t0 = rows.get(0).arrived() - 1_000;
    long ended = rows.get(rows.size() - 1).arrived();
    phase("run-full", Phase.WARMUP, t0);
    phase("run-full", Phase.MEASURING, t0);
    WholeProcessorDriver.fixture(fixture).lines().forEach(l -> line("run-full", l));
    phase("run-full", Phase.STOPPING, ended);
    double fromSeconds = driver.latestValue("sender_bps");
    // iperf's total over 12.0003 s: 4294868 kbit/s; the rows are whole kbit/s, dated by arrival (±10 ms a second)
    assertThat(fromSeconds).isCloseTo(4_294_868e3, within(0.001 * 4_294_868e3));

    // fixed mode: the finished client's output reaches tool-output; its printed total is the figure
    String stdout = WholeProcessorDriver.fixture(fixture).lines().map(l -> l.substring(l.indexOf('\t') + 1)).reduce("", (a, b) -> a + b + "\n");
    driver.toolOutput.pipeInput("run-full", Json.bytes(new ToolOutputEvent(ToolOutputEvent.SCHEMA, "run-full",
        "iperf_bandwidth", 1, "peer", "client", "iperf", "0", "iperf -c sut -i 1 --sum-only -f k -P 2", 0, stdout, "",
        t0, ended)), ended);
    assertThat(driver.latestValue("sender_bps")).isEqualTo(4_294_868e3);
  }

  /** Each row's rate over its second, the row dated by its arrival as netpulse does, averaged over [from, to). */
  private static double meanByHand(List<Row> rows, long from, long to) {
    double amount = 0;
    long previous = rows.get(0).arrived() - 1_000;
    for (Row r : rows) {
      long overlap = Math.min(r.arrived(), to) - Math.max(previous, from);
      amount += overlap > 0 ? r.bps() * overlap / 1_000.0 : 0;
      previous = r.arrived();
    }
    return amount * 1_000.0 / (to - from);
  }

  private void phase(String run, Phase phase, long ts) {
    driver.phase(run, "iperf_bandwidth", phase, ts, STEADY);
  }

  private long seq;

  /** A fixture line as the launcher streams it: dated by its arrival, with the client's instance. */
  private void line(String run, String stamped) {
    int tab = stamped.indexOf('\t');
    long ts = Long.parseLong(stamped.substring(0, tab));
    driver.lines.pipeInput("peer", Json.bytes(LineEvent.of("peer", "iperf", run, seq++, ts, stamped.substring(tab + 1))
        .withInstance("0")), ts);
  }

  record Row(long arrived, double start, double end, double bps) {}

  /** The fixture's interval rows (not the total row from 0), in kbit/s × 1000. */
  private static List<Row> rows(String fixture) {
    List<Row> out = new ArrayList<>();
    for (String l : WholeProcessorDriver.fixture(fixture).lines().toList()) {
      Matcher m = ROW.matcher(l);
      if (m.find() && !(Double.parseDouble(m.group(2)) == 0 && Double.parseDouble(m.group(3)) > 1.5)) {
        out.add(new Row(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
            Double.parseDouble(m.group(4)) * 1e3));
      }
    }
    return out;
  }
}
