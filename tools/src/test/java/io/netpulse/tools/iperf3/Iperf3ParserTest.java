package io.netpulse.tools.iperf3;

import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;

import static io.netpulse.tools.Fixtures.find;
import static io.netpulse.tools.Fixtures.lines;
import static io.netpulse.tools.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.event.Sample;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class Iperf3ParserTest {

  private static final long REF = 1_796_000_000_000L;
  private static final ParseContext CTX = new ParseContext(ZoneOffset.UTC, REF, null);
  private final Iperf3Parser parser = new Iperf3Parser();

  private ParseResult parse(String fixture) {
    ParseResult r = parser.parse(lines("iperf3/" + fixture), CTX);
    assertThat(r.errors()).as(fixture).isEmpty();
    return r;
  }

  @Test
  void tcpTextIntervalsAndSummary() {
    ParseResult r = parse("iperf3-tcp.txt");
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value, Sample::ts).containsExactly(
        org.assertj.core.groups.Tuple.tuple(4.62e9, REF + 1000),
        org.assertj.core.groups.Tuple.tuple(5.95e9, REF + 2000),
        org.assertj.core.groups.Tuple.tuple(7.49e9, REF + 3000));
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(6.02e9);
    assertThat(only(r.samples(), "receiver_bps").value()).isEqualTo(6.01e9);
    assertThat(only(r.samples(), "receiver_bps").summary()).isTrue();
    assertThat(find(r.samples(), "interval_pps", null)).isEmpty(); // Retr is no datagram count
  }

  @Test
  void parallelStreamsUseSumRows() {
    ParseResult r = parse("iperf3-tcp-P2.txt");
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value)
        .containsExactly(16.0e9, 12.2e9, 10.1e9);
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(12.8e9);
    assertThat(find(r.samples(), "interval_pps", null)).isEmpty();
  }

  @Test
  void udpTextLossAndPacketRates() {
    ParseResult r = parse("iperf3-udp.txt");
    assertThat(find(r.samples(), "interval_pps", null)).extracting(Sample::value).containsExactly(4313.0, 4317.0, 4316.0);
    assertThat(only(r.samples(), "jitter_ms").value()).isEqualTo(0.012);
    assertThat(only(r.samples(), "datagrams").value()).isEqualTo(12946);
    assertThat(only(r.samples(), "lost").value()).isZero();
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(50.0e6);

    ParseResult p2 = parse("iperf3-udp-P2.txt");
    assertThat(find(p2.samples(), "interval_pps", null)).extracting(Sample::value)
        .satisfiesExactly(v -> assertThat(v).isCloseTo(3214 / 1.04, within(1e-9)),
            v -> assertThat(v).isCloseTo(3843.75, within(1e-9))); // 3690 / 0.96
    assertThat(only(p2.samples(), "lost").value()).isEqualTo(155);
    assertThat(only(p2.samples(), "loss_pct").value()).isCloseTo(2.2450753, within(1e-6)); // 155 / 6904
    assertThat(only(p2.samples(), "receiver_bps").value()).isEqualTo(39.1e6);
  }

  @Test
  void jsonTcpAndUdp() {
    ParseResult tcp = parse("iperf3-tcp.json");
    // start.timestamp.timesecs 1796015632 + intervals[].sum.end
    assertThat(find(tcp.samples(), "interval_bps", null)).extracting(Sample::value, Sample::ts).containsExactly(
        org.assertj.core.groups.Tuple.tuple(11762539183.747187, 1_796_015_633_001L),
        org.assertj.core.groups.Tuple.tuple(12412150694.63432, 1_796_015_634_000L));
    assertThat(only(tcp.samples(), "sender_bps").value()).isEqualTo(12087125942.058115);
    assertThat(only(tcp.samples(), "receiver_bps").value()).isEqualTo(12081191490.382406);

    ParseResult udp = parse("iperf3-udp.json");
    assertThat(only(udp.samples(), "lost").value()).isEqualTo(18700);
    assertThat(only(udp.samples(), "datagrams").value()).isEqualTo(185496);
    assertThat(only(udp.samples(), "loss_pct").value()).isEqualTo(10.081079915469875);
    assertThat(only(udp.samples(), "receiver_bps").value()).isEqualTo(42674491.3638669);
    assertThat(only(udp.samples(), "receiver_bps").ts()).isEqualTo(1_796_015_636_001L);
    assertThat(find(udp.samples(), "interval_pps", null).get(0).value())
        .isCloseTo(97596 / 1.0000900030136108, within(1e-6));
  }

  @Test
  void seed002ServerSideReceiverRows() {
    ParseResult r = parse("seed-002-receiver.txt");
    assertThat(find(r.samples(), "receiver_bps", null)).extracting(Sample::value)
        .containsExactly(197e6, 185e6, 183e6, 177e6, 195e6, 192e6, 202e6);
    assertThat(find(r.samples(), "sender_bps", null)).extracting(Sample::value).containsOnly(0.0);
  }

  @Test
  void brokenJsonAndToolErrorsAreReported() {
    ParseResult bad = parser.parse(java.util.List.of("{", "  \"start\": [1,"), CTX);
    assertThat(bad.samples()).isEmpty();
    assertThat(bad.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("JSON"));
    ParseResult refused = parser.parse(java.util.List.of(
        "iperf3: error - unable to connect to server - server may have stopped running or use a different port"), CTX);
    assertThat(refused.errors()).singleElement().satisfies(e -> assertThat(e.line()).isEqualTo(1));
  }
}
