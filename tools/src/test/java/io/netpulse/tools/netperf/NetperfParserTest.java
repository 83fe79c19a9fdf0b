package io.netpulse.tools.netperf;

import io.netpulse.tools.Fixtures;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;

import static io.netpulse.tools.Fixtures.lines;
import static io.netpulse.tools.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.event.Sample;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Expected values read off the captured outputs by hand (10^6bits/sec × 10^6 = bit/s). */
@Tag("unit")
class NetperfParserTest {

  private static final long REF = 1_796_015_700_000L;
  private static final ParseContext CTX = new ParseContext(ZoneOffset.UTC, REF, null);
  private final NetperfParser parser = new NetperfParser();

  private ParseResult parse(String fixture, String test) {
    return parser.parse(lines("netperf/" + fixture), test == null ? CTX : CTX.withTest(test));
  }

  @Test
  void tcpStreamWithMigratedAndOldBanner() {
    for (String f : new String[] {"netperf-tcp-stream.txt", "netperf-tcp-stream-old-banner.txt"}) {
      ParseResult r = parse(f, null);
      assertThat(r.errors()).isEmpty();
      Sample s = only(r.samples(), "throughput_bps");
      assertThat(s.value()).isCloseTo(1_269_880_000.0, within(1e-3)); // 1269.88 10^6bits/sec
      assertThat(s.test()).isEqualTo("TCP_STREAM");
      assertThat(s.summary()).isTrue();
      assertThat(s.ts()).isEqualTo(REF);
    }
  }

  @Test
  void udpStreamSendAndReceiveLines() {
    ParseResult r = parse("netperf-udp-stream.txt", null);
    assertThat(r.errors()).isEmpty();
    assertThat(only(r.samples(), "send_msgs").value()).isEqualTo(305852);
    assertThat(only(r.samples(), "elapsed_s").value()).isEqualTo(2.0);
    assertThat(only(r.samples(), "send_pps").value()).isCloseTo(152926.0, within(1e-9));
    assertThat(only(r.samples(), "recv_msgs").value()).isEqualTo(304393);
    assertThat(only(r.samples(), "recv_pps").value()).isCloseTo(152196.5, within(1e-9));
    assertThat(only(r.samples(), "recv_bps").value()).isCloseTo(1_220_000.0, within(1e-6));
    assertThat(only(r.samples(), "recv_pps").test()).isEqualTo("UDP_STREAM");
  }

  @Test
  void requestResponseTests() {
    assertThat(only(parse("netperf-tcp-rr.txt", null).samples(), "trans_per_s").value()).isEqualTo(28387.14);
    Sample crr = only(parse("netperf-tcp-crr.txt", null).samples(), "trans_per_s");
    assertThat(crr.value()).isEqualTo(10608.61);
    assertThat(crr.test()).isEqualTo("TCP_CRR");
    Sample udpRr = only(parse("netperf-udp-rr.txt", null).samples(), "trans_per_s");
    assertThat(udpRr.value()).isEqualTo(51423.14);
    assertThat(udpRr.test()).isEqualTo("UDP_RR");
  }

  @Test
  void bannerlessP0TakesTheTestFromContext() {
    Sample stream = only(parse("netperf-tcp-stream-P0.txt", "TCP_STREAM").samples(), "throughput_bps");
    assertThat(stream.value()).isCloseTo(1_295_880_000.0, within(1e-3));
    assertThat(only(parse("netperf-tcp-rr-P0.txt", "TCP_RR").samples(), "trans_per_s").value()).isEqualTo(44445.24);
    ParseResult udp = parse("netperf-udp-stream-P0.txt", "UDP_STREAM");
    assertThat(only(udp.samples(), "send_pps").value()).isCloseTo(47158.0, within(1e-9)); // 94316 / 2.00
    assertThat(only(udp.samples(), "recv_pps").value()).isCloseTo(36616.0, within(1e-9)); // 73232 / 2.00

    ParseResult unknown = parse("netperf-tcp-stream-P0.txt", null);
    assertThat(unknown.samples()).isEmpty();
    assertThat(unknown.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(1);
      assertThat(e.message()).contains("--test");
    });
  }

  @Test
  void seed003TableWithoutBannerIsKnownByItsHeaders() {
    ParseResult r = parse("seed-003-udp-stream.txt", null);
    assertThat(r.errors()).isEmpty();
    assertThat(only(r.samples(), "send_pps").value()).isCloseTo(453255.4, within(1e-6)); // 4532554 / 10.00
    assertThat(only(r.samples(), "recv_pps").value()).isCloseTo(109999.9, within(1e-6)); // 1099999 / 10.00
    assertThat(only(r.samples(), "send_bps").value()).isCloseTo(3_630_000.0, within(1e-6));
  }

  @Test
  void demoModeInterimLinesCarryTheirOwnTime() {
    ParseResult r = parse("netperf-tcp-stream-demo.txt", null);
    assertThat(r.errors()).isEmpty();
    assertThat(Fixtures.find(r.samples(), "interim_bps", null))
        .extracting(Sample::value, Sample::ts)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2_395_730_000.0, 1_796_015_670_464L),
            org.assertj.core.groups.Tuple.tuple(3_061_840_000.0, 1_796_015_670_846L));
    assertThat(only(r.samples(), "throughput_bps").value()).isCloseTo(2_475_620_000.0, within(1e-3));

    ParseResult rr = parse("netperf-tcp-rr-demo.txt", null);
    assertThat(Fixtures.find(rr.samples(), "interim_trans_per_s", null)).extracting(Sample::value)
        .containsExactly(26265.21, 32502.90, 39038.30);
    assertThat(only(rr.samples(), "trans_per_s").value()).isEqualTo(32591.53);

    ParseResult one = parser.parseLine(
        "Interim result: 9155.29 Trans/s over 1.067 seconds ending at 1796014834.184", 0, ParseContext.streamed(1));
    assertThat(only(one.samples(), "interim_trans_per_s").ts()).isEqualTo(1_796_014_834_184L);
  }

  /**
   * Why udp_stream cannot stop early (docs/steady-state.md): UDP_STREAM's {@code -D 1} interim lines are the
   * sender's rate alone. Over a whole run they average (each over its own interval) to the send row's throughput,
   * and send_pps is that rate ÷ (8 × message bytes); the receive row, only netserver's and only at the end, is
   * another figure (36 % of the datagrams lost here) that nothing per second stands for.
   */
  @Test
  void udpStreamInterimLinesAreTheSendersRateOnly() {
    for (String f : new String[] {"netperf-udp-stream-D1-m1.txt", "netperf-udp-stream-D1-m1400.txt"}) {
      double bytes = f.contains("m1400") ? 1400 : 1;
      ParseResult r = parse(f, null);
      assertThat(r.errors()).as(f).isEmpty();
      double bits = 0;
      double seconds = 0;
      for (String line : lines("netperf/" + f)) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("over (\\S+) seconds").matcher(line);
        if (m.find()) {
          double over = Double.parseDouble(m.group(1));
          double rate = only(parser.parseLine(line, 0, CTX).samples(), "interim_bps").value();
          bits += rate * over;
          seconds += over;
        }
      }
      double interimMean = bits / seconds;
      double send = only(r.samples(), "send_bps").value();
      // interim rates print 2 decimals of 10^6 bit/s: 0.005 Mbit/s is 0.6 % of -m 1's 0.81 Mbit/s
      assertThat(interimMean).as(f).isCloseTo(send, within(send * (bytes == 1 ? 0.01 : 0.001)));
      assertThat(send / (8 * bytes)).as(f + " pps").isCloseTo(only(r.samples(), "send_pps").value(),
          within(only(r.samples(), "send_pps").value() * (bytes == 1 ? 0.01 : 0.001)));
      assertThat(only(r.samples(), "recv_bps").value()).as(f).isLessThan(0.8 * send);
    }
  }
}
