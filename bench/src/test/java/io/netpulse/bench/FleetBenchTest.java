package io.netpulse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.Sample;
import io.netpulse.processor.ProcessorSettings;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
class FleetBenchTest {

  /** The simulated hosts' lines are what the parsers accept: every row gives its samples, nothing is an error. */
  @Test
  void simulatedLinesParseCleanly() {
    SarLineGenerator gen = new SarLineGenerator(3, 1);
    long second = 1_796_014_834_000L;
    List<Sample> samples = new ArrayList<>();
    for (SarLineGenerator.SourceLine l : gen.second(2, second, true)) {
      ParseResult r = Parsers.lineParser(l.source()).orElseThrow().parseLine(l.text(), 0, ParseContext.streamed(second + 300));
      assertThat(r.errors()).as(l.text()).isEmpty();
      samples.addAll(r.samples());
    }
    // 4 ifaces × rx/tx pps/bps from sar, 5 tcp figures from ss -s
    assertThat(samples).hasSize(4 * 4 + 5);
    assertThat(samples).filteredOn(s -> "eth0".equals(s.iface()) && s.metric().equals("rx_pps"))
        .singleElement().satisfies(s -> assertThat(s.value()).isGreaterThan(1000));
    assertThat(samples).filteredOn(s -> s.metric().equals("tcp_estab")).singleElement()
        .satisfies(s -> assertThat(s.value()).isBetween(200.0, 250.0));
  }

  /** A short real run: 50 hosts for 10 s print their figures every 5 s, and the processor keeps up. */
  @Test
  void fiftyHostsForTenSeconds(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    FleetBench.Verdict v = FleetBench.run(dir, 50, Duration.ofSeconds(10), Duration.ofSeconds(5), 1, 2,
        ProcessorSettings.DEFAULTS, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(text); // the figures, for whoever reads the test report

    assertThat(v.reports()).hasSize(2);
    assertThat(text).contains("fleet: 50 hosts").contains("lag ").contains("heap after GC").contains("verdict:");
    FleetBench.Report last = v.reports().get(1);
    // 50 hosts × (6 sar + 9 ss lines) a second: ~750 lines/s; a loaded machine may lose a few ticks
    assertThat(last.linesEmitted()).isBetween(50L * 15 * 5, 50L * 15 * 11);
    assertThat(last.linesSent()).isPositive();
    // the processor reads along (whether it keeps up is the bench's verdict, not a timed test's: a CPU-bound test on
    // the same two cores put it 7,000 lines behind once)
    assertThat(last.lag()).isLessThan(last.linesEmitted());
    assertThat(v.reports().stream().filter(r -> r.delayP50P99Ms() != null)).isNotEmpty();
    assertThat(last.heapUsedBytes()).isPositive();
  }
}
