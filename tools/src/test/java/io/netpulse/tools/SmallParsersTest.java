package io.netpulse.tools;

import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;

import static io.netpulse.tools.Fixtures.find;
import static io.netpulse.tools.Fixtures.lines;
import static io.netpulse.tools.Fixtures.only;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.event.Sample;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** iperf 2, qperf, sockperf, ping, ss -s, /proc/net/dev on captured outputs; values read off by hand. */
@Tag("unit")
class SmallParsersTest {

  private static final long REF = 1_796_000_000_000L;
  private static final ParseContext CTX = new ParseContext(ZoneOffset.UTC, REF, null);

  private static ParseResult parse(String format, String fixture) {
    ParseResult r = Parsers.forFormat(format).parse(lines(fixture), CTX);
    assertThat(r.errors()).as(fixture).isEmpty();
    return r;
  }

  @Test
  void iperf2TcpIntervalsTotalAndSum() {
    ParseResult r = parse("iperf", "iperf/iperf-tcp.txt");
    assertThat(find(r.samples(), "interval_bps", null)).extracting(Sample::value).containsExactly(5.46e9, 6.42e9, 6.76e9);
    Sample total = only(r.samples(), "sender_bps");
    assertThat(total.value()).isEqualTo(6.18e9);
    assertThat(total.ts()).isEqualTo(REF + 3014); // 3.0136 s
    assertThat(total.summary()).isTrue();

    ParseResult p3 = parse("iperf", "iperf/iperf-tcp-P3.txt");
    assertThat(p3.samples()).singleElement().satisfies(s -> {
      assertThat(s.metric()).isEqualTo("sender_bps");
      assertThat(s.value()).isEqualTo(10.5e9);
    });
  }

  @Test
  void iperf2UdpServerReport() {
    ParseResult r = parse("iperf", "iperf/iperf-udp.txt");
    assertThat(only(r.samples(), "sender_bps").value()).isEqualTo(21.0e6);
    assertThat(only(r.samples(), "receiver_bps").value()).isEqualTo(21.0e6);
    assertThat(only(r.samples(), "jitter_ms").value()).isEqualTo(0.001);
    assertThat(only(r.samples(), "datagrams").value()).isEqualTo(5353);
    assertThat(only(r.samples(), "lost").value()).isZero();
  }

  @Test
  void qperfLatencyAndBandwidth() {
    ParseResult vvu = parse("qperf", "qperf/qperf-lat-vvu.txt");
    assertThat(only(vvu.samples(), "tcp_lat_us").value()).isEqualTo(11.7);
    assertThat(only(vvu.samples(), "udp_lat_us").value()).isEqualTo(17.5);
    assertThat(only(vvu.samples(), "udp_lat_us").test()).isEqualTo("udp_lat");

    ParseResult plain = parse("qperf", "qperf/qperf-plain.txt");
    assertThat(only(plain.samples(), "tcp_lat_us").value()).isEqualTo(22.8);
    assertThat(only(plain.samples(), "udp_lat_us").value()).isEqualTo(8.12);
    assertThat(only(plain.samples(), "tcp_bw_bps").value()).isCloseTo(11.36e9, within(1e-3)); // 1.42 GB/sec × 8
    assertThat(only(plain.samples(), "udp_bw_bps").value()).isCloseTo(1.016e9, within(1e-3)); // recv 127 MB/sec
    assertThat(only(plain.samples(), "udp_bw_send_bps").value()).isCloseTo(1.72e9, within(1e-3)); // 215 MB/sec
    assertThat(only(parse("qperf", "qperf/qperf-bw-vvu.txt").samples(), "tcp_bw_bps").value())
        .isCloseTo(7.08e9, within(1e-3)); // 885 MB/sec

    ParseResult ms = Parsers.forFormat("qperf").parse(List.of("tcp_lat:", "    latency  =  1.5 ms"), CTX);
    assertThat(only(ms.samples(), "tcp_lat_us").value()).isEqualTo(1500.0);
  }

  @Test
  void qperfLoopGivesEachSecondsMessageRateStreamedOrWhole() {
    ParseResult tcp = parse("qperf-tcp_lat", "qperf/qperf-loop-tcp-lat-10.txt");
    assertThat(tcp.samples()).extracting(Sample::metric).containsOnly("interim_tcp_lat_msg_rate");
    // the ten 1-s tests' latencies, read off the capture: 13, 16.2, ... 61.2 us; as rates, 1e6 / latency
    assertThat(tcp.samples()).extracting(Sample::value).containsExactly(1e6 / 13, 1e6 / 16.2, 1e6 / 18.8, 1e6 / 22.8,
        1e6 / 79.2, 1e6 / 15.8, 1e6 / 12.6, 1e6 / 23.7, 1e6 / 40.5, 1e6 / 61.2);
    assertThat(tcp.samples()).allSatisfy(s -> {
      assertThat(s.unit()).isEqualTo("messages/s");
      assertThat(s.summary()).isFalse();
    });
    ParseResult udp = parse("qperf-udp_lat", "qperf/qperf-loop-udp-lat-10.txt");
    assertThat(udp.samples()).hasSize(10).extracting(Sample::metric).containsOnly("interim_udp_lat_msg_rate");
    assertThat(udp.samples().get(7).value()).isEqualTo(1e6 / 8.86);
    // stopped with SIGTERM during its fourth second: three blocks and the fourth's name, nothing half-read
    assertThat(parse("qperf-tcp_lat", "qperf/qperf-loop-tcp-lat-term.txt").samples()).extracting(Sample::value)
        .containsExactly(1e6 / 19.2, 1e6 / 50, 1e6 / 12.8);

    LineParser streamed = Parsers.lineParser("qperf-tcp_lat").orElseThrow();
    assertThat(streamed.parseLine("    latency   =  1.5 ms", 0, ParseContext.streamed(REF)).samples())
        .singleElement().satisfies(s -> {
          assertThat(s.value()).isCloseTo(1e6 / 1500, within(1e-9));
          assertThat(s.ts()).isEqualTo(REF); // the line names no time: when it was received
        });
    assertThat(streamed.parseLine("tcp_lat:", 0, CTX).isEmpty()).isTrue();
    assertThat(streamed.parseLine("    timeout   =     7 sec", 0, CTX).isEmpty()).isTrue();
    assertThat(streamed.parseLine("    latency   =  0 us", 3, CTX).errors()).singleElement()
        .satisfies(e -> assertThat(e.describe()).contains("line 3").contains("latency").contains("0 us"));
    assertThat(streamed.parseLine("qperf: failed to connect: Connection refused", 1, CTX).errors()).singleElement()
        .satisfies(e -> assertThat(e.describe()).contains("qperf reported: qperf: failed to connect"));
  }

  @Test
  void sockperfPingPongVariantsAndThroughput() {
    ParseResult pp = parse("sockperf", "sockperf/sockperf-pp-tcp.txt");
    assertThat(only(pp.samples(), "avg_latency_us").value()).isEqualTo(35.683);
    assertThat(only(pp.samples(), "p50_us").value()).isEqualTo(9.863);
    assertThat(only(pp.samples(), "p90_us").value()).isEqualTo(14.451);
    assertThat(only(pp.samples(), "p99_us").value()).isEqualTo(487.724);
    assertThat(only(pp.samples(), "p999_us").value()).isEqualTo(3922.855);
    assertThat(only(pp.samples(), "max_us").value()).isEqualTo(89540.709);
    assertThat(only(pp.samples(), "min_us").value()).isEqualTo(8.190);

    assertThat(only(parse("sockperf", "sockperf/sockperf-pp-tcp-avg-lat.txt").samples(), "avg_latency_us").value())
        .isEqualTo(35.683);
    ParseResult rtt = parse("sockperf", "sockperf/sockperf-pp-udp-avg-rtt.txt");
    assertThat(only(rtt.samples(), "avg_rtt_us").value()).isEqualTo(16.611);
    assertThat(only(rtt.samples(), "avg_latency_us").value()).isCloseTo(8.3055, within(1e-12));

    ParseResult tp = parse("sockperf", "sockperf/sockperf-tp-udp.txt");
    assertThat(only(tp.samples(), "msg_rate").value()).isEqualTo(156330);
    assertThat(only(tp.samples(), "bandwidth_bps").value()).isCloseTo(16.698e6, within(1e-6));
  }

  @Test
  void pingRepliesAndSummary() {
    ParseResult r = parse("ping", "ping/ping-ns.txt");
    assertThat(find(r.samples(), "rtt_ms", null)).extracting(Sample::value)
        .containsExactly(0.180, 0.047, 0.039, 0.050, 0.038);
    assertThat(only(r.samples(), "transmitted").value()).isEqualTo(5);
    assertThat(only(r.samples(), "received").value()).isEqualTo(5);
    assertThat(only(r.samples(), "loss_pct").value()).isZero();
    assertThat(only(r.samples(), "rtt_avg_ms").value()).isEqualTo(0.070);
    assertThat(only(r.samples(), "rtt_mdev_ms").value()).isEqualTo(0.054);
    assertThat(only(r.samples(), "rtt_avg_ms").summary()).isTrue();

    ParseResult d = parse("ping", "ping/ping-D.txt");
    assertThat(find(d.samples(), "rtt_ms", null).get(0).ts()).isEqualTo(1_796_015_706_877L);
    assertThat(only(parse("ping", "ping/ping-lo.txt").samples(), "rtt_max_ms").value()).isEqualTo(0.194);

    ParseResult loss = Parsers.forFormat("ping").parse(
        List.of("10 packets transmitted, 7 received, +3 errors, 30% packet loss, time 9011ms"), CTX);
    assertThat(only(loss.samples(), "loss_pct").value()).isEqualTo(30.0);
  }

  @Test
  void ssSummaryTcpLine() {
    ParseResult ns = parse("ss-summary", "ss/ss-summary-ns.txt");
    assertThat(ns.samples()).extracting(Sample::metric, Sample::value).containsExactly(
        org.assertj.core.groups.Tuple.tuple("tcp_total", 28.0), org.assertj.core.groups.Tuple.tuple("tcp_estab", 0.0),
        org.assertj.core.groups.Tuple.tuple("tcp_closed", 28.0), org.assertj.core.groups.Tuple.tuple("tcp_orphaned", 0.0),
        org.assertj.core.groups.Tuple.tuple("tcp_timewait", 22.0));
    assertThat(only(parse("ss-summary", "ss/ss-summary-root.txt").samples(), "tcp_closed").value()).isEqualTo(13);
    ParseResult old = Parsers.forFormat("ss-summary").parse(
        List.of("TCP:   5 (estab 1, closed 0, orphaned 0, synrecv 0, timewait 3/0), ports 0"), CTX);
    assertThat(only(old.samples(), "tcp_timewait").value()).isEqualTo(3);
    assertThat(only(old.samples(), "tcp_estab").ts()).isEqualTo(REF);
  }

  @Test
  void procNetDevRatesBetweenTimedSnapshots() {
    ParseResult r = parse("proc-net-dev", "proc/proc-net-dev-ns.txt");
    assertThat(r.samples()).hasSize(2 * 2 * 4);
    List<Sample> rxPps = find(r.samples(), "rx_pps", "npp-a");
    // packets 1110533 -> 1110553 over 1796015708659 - 1796015707309 = 1.350 s
    assertThat(rxPps.get(0).value()).isCloseTo(20 / 1.350, within(1e-9));
    assertThat(rxPps.get(0).ts()).isEqualTo(1_796_015_708_659L);
    assertThat(rxPps.get(1).value()).isCloseTo(20 / 1.442, within(1e-9));
    // bytes 24964874790 -> 24964876750 = 1960 B
    assertThat(find(r.samples(), "tx_bps", "npp-a").get(0).value()).isCloseTo(1960 * 8 / 1.350, within(1e-6));
    assertThat(find(r.samples(), "rx_bps", "lo")).extracting(Sample::value).containsOnly(0.0);

    List<String> untimed = lines("proc/proc-net-dev-ns.txt").stream().filter(l -> !l.startsWith("#")).toList();
    ParseResult u = Parsers.forFormat("proc-net-dev").parse(untimed, CTX);
    assertThat(find(u.samples(), "rx_pps", "npp-a")).extracting(Sample::value, Sample::ts).containsExactly(
        org.assertj.core.groups.Tuple.tuple(20.0, REF - 1000), org.assertj.core.groups.Tuple.tuple(20.0, REF));
  }

  /** The sampler's first two readings can be ms apart (it reads at start, then on the second): no rate over them. */
  @Test
  void procNetDevSnapshotMillisecondsAfterTheLastIsSkipped() {
    List<String> timed = lines("proc/proc-net-dev-ns.txt");
    List<String> withEarly = new java.util.ArrayList<>();
    int snapshot = 0;
    for (String l : timed) {
      if (l.startsWith("# ") && snapshot++ == 1) {
        // the first snapshot read again 5 ms after it (the same counters, or a few more packets: no matter)
        long first = Long.parseLong(timed.get(0).substring(2).strip());
        withEarly.add("# " + (first + 5));
        withEarly.addAll(timed.subList(1, timed.indexOf(l)));
      }
      withEarly.add(l);
    }
    ParseResult r = Parsers.forFormat("proc-net-dev").parse(withEarly, CTX);
    ParseResult plain = parse("proc-net-dev", "proc/proc-net-dev-ns.txt");
    assertThat(r.errors()).isEmpty();
    assertThat(r.samples()).isEqualTo(plain.samples());
  }
}
