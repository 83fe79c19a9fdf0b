package io.netpulse.tools.iperf;

import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;

import static io.netpulse.tools.Fixtures.find;
import static io.netpulse.tools.Fixtures.lines;
import static io.netpulse.tools.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.Sample;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** iperf 2.1.8 {@code -i 1} outputs captured on loopback (see the fixtures' README): whole, and streamed line by line. */
@Tag("unit")
class IperfParserTest {

  private static final long REF = 1_796_000_000_000L;
  private static final ParseContext CTX = new ParseContext(ZoneOffset.UTC, REF, null);
  private final IperfParser parser = new IperfParser();

  @Test
  void withTwoStreamsEachSecondHasASumRowAndTheLastSumFromZeroIsTheSendersTotal() {
    ParseResult r = parser.parse(lines("iperf/iperf-i1-P2.txt"), CTX);
    assertThat(r.errors()).isEmpty();
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value)
        .usingElementComparator(new org.assertj.core.util.DoubleComparator(1))
        .containsExactly(29.4e9, 37.0e9, 33.3e9, 37.9e9, 38.5e9, 39.5e9); // 3 digits as printed, ×1e9 in floating point
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(35.9e9);
  }

  @Test
  void sumOnlyRowsCarryTheStreamCountAndAreReadAsSumRowsWhole() {
    ParseResult r = parser.parse(lines("iperf/iperf-sum-only-P1.txt"), CTX);
    assertThat(r.errors()).isEmpty();
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value).containsOnly(2_147_484e3);
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(2_147_648e3);
  }

  @Test
  void streamedSumOnlyRowsAreTheSendersRateEachSecondDatedByArrivalNotTheStopsTotalRow() {
    // a client stopped by SIGTERM at 6.5 s prints its partial last second and its total from 0
    List<Sample> streamed = new ArrayList<>();
    long arrival = REF;
    for (String line : lines("iperf/iperf-sum-only-P2-term.txt")) {
      ParseResult r = parser.parseLine(line, 0, ParseContext.streamed(arrival += 1_000));
      assertThat(r.errors()).isEmpty();
      streamed.addAll(r.samples());
    }
    assertThat(streamed).extracting(Sample::metric).containsOnly("interim_sender_bps");
    assertThat(streamed).extracting(Sample::unit).containsOnly("bit/s");
    assertThat(streamed).extracting(Sample::value).containsExactly(4_293_920e3, 4_294_967e3, 4_294_967e3,
        4_294_967e3, 4_294_967e3, 4_294_967e3, 4_291_038e3);
    assertThat(streamed).extracting(Sample::ts).doesNotHaveDuplicates().allMatch(ts -> ts > REF);
    // rows of a client run without --sum-only cannot tell a stream's row from the total: nothing is read
    for (String line : lines("iperf/iperf-i1-P2.txt")) {
      assertThat(parser.parseLine(line, 0, ParseContext.streamed(REF)).samples()).as(line).isEmpty();
    }
  }
}
