package io.netpulse.tools.iperf3;

import static io.netpulse.tools.Fixtures.find;
import static io.netpulse.tools.Fixtures.lines;
import static io.netpulse.tools.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.Sample;
import io.netpulse.tools.Parsers;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The iperf3_bandwidth client's output as the real iperf3 3.12 prints it (captured on this machine over loopback, see
 * the fixtures' README): {@code iperf3 -c 127.0.0.1 -p 5301 -t 3 -P 2 -i 1 -f k}, the same with {@code -J}, and the
 * same stopped by SIGTERM after 2.6 s.
 */
@Tag("unit")
class Iperf3BandwidthCapturesTest {

  private static final long REF = 1_796_177_880_000L;
  private static final ParseContext CTX = new ParseContext(ZoneOffset.UTC, REF, null);

  private static ParseResult parse(String fixture) {
    return Parsers.forFormat("iperf3").parse(lines("iperf3/" + fixture), CTX);
  }

  @Test
  void kbitRowsGiveTheSumsToTheKilobit() {
    ParseResult r = parse("iperf3-tcp-P2-i1-fk.txt");
    assertThat(r.errors()).isEmpty();
    // the [SUM] rows only (-P 2), each second's end after the reference time
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value, Sample::ts).containsExactly(
        org.assertj.core.groups.Tuple.tuple(1_315_982e3, REF + 1050),
        org.assertj.core.groups.Tuple.tuple(1_429_761e3, REF + 2010),
        org.assertj.core.groups.Tuple.tuple(1_030_458e3, REF + 3010));
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(1_257_667e3);
    Sample received = only(r.samples(), "receiver_bps");
    assertThat(received.value()).isEqualTo(1_257_381e3);
    assertThat(received.summary()).isTrue();
    assertThat(received.unit()).isEqualTo("bit/s");
  }

  @Test
  void jsonGivesTheSameFigures() {
    ParseResult r = parse("iperf3-tcp-P2-i1.json");
    assertThat(r.errors()).isEmpty();
    assertThat(find(r.samples(), "interval_bps", null)).hasSize(3);
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(763249854.00618);
    assertThat(only(r.samples(), "receiver_bps").value()).isEqualTo(761048147.539332);
    // dated by iperf3's own start time, not the reference
    assertThat(only(r.samples(), "receiver_bps").ts()).isGreaterThanOrEqualTo(1_796_177_891_000L);
  }

  @Test
  void anInterruptedClientsZeroReceiverRowIsAnErrorNotARate() {
    ParseResult r = parse("iperf3-tcp-P2-i1-fk-term.txt");
    assertThat(find(r.samples(), "receiver_bps", null)).isEmpty();
    // what it sent is still its own figure (from 0, the whole 2.66 s)
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(495_106e3);
    assertThat(r.errors()).extracting(ParseError::line, ParseError::field).containsExactly(
        org.assertj.core.groups.Tuple.tuple(15, null), org.assertj.core.groups.Tuple.tuple(24, "receiver"));
    assertThat(r.errors().get(1).describe()).startsWith("line 24: field receiver: the client was interrupted");
  }
}
