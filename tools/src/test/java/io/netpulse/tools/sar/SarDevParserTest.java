package io.netpulse.tools.sar;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.Fixtures;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netpulse.common.event.Sample;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Golden values worked out by hand from the fixture text: bit/s = kB/s × 1024 × 8. */
@Tag("unit")
class SarDevParserTest {

  private static final ParseContext UTC_NO_REF = new ParseContext(ZoneOffset.UTC, 0, null);
  private final SarDevParser parser = new SarDevParser();

  private static long utc(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private static Sample at(List<Sample> samples, String metric, String iface, long ts, boolean summary) {
    List<Sample> found = samples.stream()
        .filter(s -> s.metric().equals(metric) && s.iface().equals(iface) && s.ts() == ts
            && s.summary() == summary)
        .collect(Collectors.toList());
    assertThat(found).as(metric + " " + iface + " at " + Instant.ofEpochMilli(ts)).hasSize(1);
    return found.get(0);
  }

  @Test
  void capturedCLocaleRowsWithBannerDate() {
    ParseResult r = parser.parse(Fixtures.lines("sar/sar-dev-ns-c.txt"), UTC_NO_REF);
    assertThat(r.errors()).isEmpty();
    // 3 intervals + Average, 2 interfaces, 4 metrics
    assertThat(r.samples()).hasSize(4 * 2 * 4);
    long t1 = utc("2026-11-30T05:13:32Z");
    // 05:13:32 npp-a 1538.24 8058.82 99.24 467847.96
    assertThat(at(r.samples(), "rx_pps", "npp-a", t1, false).value()).isEqualTo(1538.24);
    assertThat(at(r.samples(), "tx_pps", "npp-a", t1, false).value()).isEqualTo(8058.82);
    assertThat(at(r.samples(), "rx_bps", "npp-a", t1, false).value()).isCloseTo(812_974.08, within(1e-6));
    assertThat(at(r.samples(), "tx_bps", "npp-a", t1, false).value())
        .isCloseTo(3_832_610_488.32, within(1e-4));
    assertThat(at(r.samples(), "tx_bps", "npp-a", t1, false).unit()).isEqualTo("bit/s");
    assertThat(at(r.samples(), "rx_pps", "npp-a", t1, false).unit()).isEqualTo("packets/s");
    // Average: npp-a 1026.16 6370.20 66.19 368941.73, stamped at the last row (05:13:34)
    long last = utc("2026-11-30T05:13:34Z");
    assertThat(at(r.samples(), "rx_pps", "npp-a", last, true).value()).isEqualTo(1026.16);
    assertThat(at(r.samples(), "tx_bps", "npp-a", last, true).value())
        .isCloseTo(3_022_370_652.16, within(1e-4));
    assertThat(r.samples().stream().filter(Sample::summary)).hasSize(8);
  }

  @Test
  void isoDateBanner() {
    ParseResult r = parser.parse(Fixtures.lines("sar/sar-dev-ns-iso.txt"), UTC_NO_REF);
    assertThat(r.errors()).isEmpty();
    // 05:13:35 npp-a 1277.00 8539.00 82.73 493477.92
    long t = utc("2026-11-30T05:13:35Z");
    assertThat(at(r.samples(), "tx_pps", "npp-a", t, false).value()).isEqualTo(8539.0);
    assertThat(at(r.samples(), "rx_bps", "npp-a", t, false).value()).isCloseTo(677_724.16, within(1e-6));
  }

  @Test
  void twelveHourClockAndFourDigitYear() {
    ParseResult r = parser.parse(Fixtures.lines("sar/sar-dev-ns-12h.txt"), UTC_NO_REF);
    assertThat(r.errors()).isEmpty();
    // 05:13:39 AM npp-a 22266.00 12584.00 1185646.23 816.63
    long t = utc("2026-11-30T05:13:39Z");
    assertThat(at(r.samples(), "rx_pps", "npp-a", t, false).value()).isEqualTo(22266.0);
    assertThat(at(r.samples(), "rx_bps", "npp-a", t, false).value())
        .isCloseTo(9_712_813_916.16, within(1e-3));
    assertThat(at(r.samples(), "tx_bps", "npp-a", t, false).value()).isCloseTo(6_689_832.96, within(1e-6));
  }

  @Test
  void seed002PmRowsWithoutIfutilUseReferenceDate() {
    long ref = utc("2026-03-05T14:45:00Z");
    ParseResult r = parser.parse(Fixtures.lines("sar/seed-002-12h.txt"), new ParseContext(ZoneOffset.UTC, ref, null));
    assertThat(r.errors()).isEmpty();
    // 02:41:04 PM eth0 1626689.00 8.00 68308.62 1.65 — first of four blocks
    long t = utc("2026-03-05T14:41:04Z");
    List<Sample> rx = Fixtures.find(r.samples(), "rx_pps", "eth0");
    assertThat(rx).extracting(Sample::value).containsExactly(1626689.0, 1599900.0, 1646689.0, 1605957.0);
    assertThat(rx).extracting(Sample::ts).containsOnly(t);
    assertThat(Fixtures.find(r.samples(), "rx_bps", "eth0").get(0).value())
        .isCloseTo(559_584_215.04, within(1e-5));
  }

  @Test
  void missingIfutilAndCrlf() {
    ParseResult r = parser.parse(Fixtures.lines("sar/sar-dev-ns-no-ifutil-crlf.txt"), UTC_NO_REF);
    assertThat(r.errors()).isEmpty();
    assertThat(r.samples()).hasSize(32);
    long t = utc("2026-11-30T05:13:33Z");
    // 05:13:33 npp-a 745.00 6185.00 48.05 355877.85
    assertThat(at(r.samples(), "rx_pps", "npp-a", t, false).value()).isEqualTo(745.0);
    assertThat(at(r.samples(), "tx_bps", "npp-a", t, false).value()).isCloseTo(2_915_351_347.2, within(1e-4));
  }

  @Test
  void singleStreamedLineGetsDateNearestReferenceAcrossMidnight() {
    String row = "23:59:59        eth0     10.00     20.00      1.00      2.00      0.00      0.00      0.00      0.00";
    ParseResult r = parser.parseLine(row, 0, ParseContext.streamed(utc("2026-12-01T00:00:00.400Z")));
    assertThat(r.errors()).isEmpty();
    assertThat(r.samples()).hasSize(4).allSatisfy(s -> {
      assertThat(s.ts()).isEqualTo(utc("2026-11-30T23:59:59Z"));
      assertThat(s.iface()).isEqualTo("eth0");
      assertThat(s.summary()).isFalse();
    });
    ParseResult next = parser.parseLine(row.replace("23:59:59", "00:00:01"), 0,
        ParseContext.streamed(utc("2026-11-30T23:59:59.900Z")));
    assertThat(next.samples().get(0).ts()).isEqualTo(utc("2026-12-01T00:00:01Z"));
    assertThat(Fixtures.only(next.samples(), "tx_bps").value()).isEqualTo(16384.0);
  }

  @Test
  void wholeTextCrossingMidnightMovesToNextDay() {
    List<String> text = List.of(
        "Linux 6.1.0 (h) \t2026-11-30 \t_x86_64_\t(2 CPU)",
        "",
        "11:59:59 PM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s",
        "11:59:59 PM      eth0      1.00      2.00      3.00      4.00      0.00      0.00      0.00",
        "12:00:00 AM      eth0      1.00      2.00      3.00      4.00      0.00      0.00      0.00",
        "12:30:00 PM      eth0      1.00      2.00      3.00      4.00      0.00      0.00      0.00");
    ParseResult r = parser.parse(text, UTC_NO_REF);
    assertThat(r.errors()).isEmpty();
    assertThat(Fixtures.find(r.samples(), "rx_pps", "eth0")).extracting(Sample::ts).containsExactly(
        utc("2026-11-30T23:59:59Z"), utc("2026-12-01T00:00:00Z"), utc("2026-12-01T12:30:00Z"));
  }

  @Test
  void zoneOfTheClockTimesIsApplied() {
    ParseResult r = parser.parse(Fixtures.lines("sar/sar-dev-ns-c.txt"),
        new ParseContext(ZoneId.of("Asia/Shanghai"), 0, "TCP_STREAM"));
    Sample first = Fixtures.find(r.samples(), "rx_pps", "npp-a").get(0);
    assertThat(first.ts()).isEqualTo(utc("2026-11-29T21:13:32Z"));
    assertThat(first.test()).isEqualTo("TCP_STREAM");
  }

  @Test
  void headersBlankAndBannerAreEmpty() {
    for (String line : List.of("", "   ", "\r",
        "Linux 6.18.44-fc-v595 (vm) \t11/30/26 \t_x86_64_\t(2 CPU)",
        "05:13:31        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil",
        "Average:        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil",
        "02:41:03 PM     IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s")) {
      assertThat(parser.parseLine(line, 1, UTC_NO_REF).isEmpty()).as(line).isTrue();
    }
  }

  @Test
  void badRowsGiveErrorsNamingLineAndField() {
    ParseResult r = parser.parse(List.of(
        "05:13:32        npp-a   1538.24   x8058.82     99.24 467847.96      0.00      0.00      0.00     38.33",
        "05:13:32        npp-a   1538.24",
        "25:13:32        npp-a   1538.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33",
        "hello world",
        "05:13:32        npp-a   1 2 3 4 5 6 7 8 9",
        "05:13:32        npp-a   -1.00   8058.82     99.24 467847.96      0.00      0.00      0.00"),
        UTC_NO_REF);
    assertThat(r.samples()).isEmpty();
    assertThat(r.errors()).extracting(ParseError::line).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(r.errors()).extracting(ParseError::field)
        .containsExactly("txpck/s", "txpck/s", "time", null, null, "rxpck/s");
    assertThat(r.errors().get(0).describe()).contains("line 1", "txpck/s", "x8058.82");
  }

  @Test
  void registryKnowsSar() {
    assertThat(Parsers.forFormat(Sources.SAR_DEV)).isInstanceOf(SarDevParser.class);
    assertThat(Parsers.lineParser(Sources.SAR_DEV)).containsInstanceOf(SarDevParser.class);
    assertThat(Parsers.formats()).contains(Sources.SAR_DEV);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Parsers.forFormat("nope"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope").hasMessageContaining(Sources.SAR_DEV);
  }

  /** The benchmark's baseline must do the same work, or the speed-up would mean nothing. */
  @Test
  void benchmarkBaselineAgreesWithParser() {
    RegexSplitSarParser baseline = new RegexSplitSarParser(java.time.LocalDate.of(2026, 11, 30));
    ParseContext context = ParseContext.streamed(utc("2026-11-30T05:13:40Z"));
    int rows = 0;
    for (String f : List.of("sar/sar-dev-ns-c.txt", "sar/sar-dev-ns-12h.txt")) {
      for (String line : Fixtures.lines(f)) {
        List<Sample> expected = parser.parseLine(line, 0, context).samples();
        List<Sample> actual = baseline.parseLine(line);
        assertThat(actual).extracting(Sample::metric, Sample::value, Sample::iface, Sample::summary)
            .containsExactlyElementsOf(expected.stream()
                .map(x -> org.assertj.core.groups.Tuple.tuple(x.metric(), x.value(), x.iface(), x.summary())).toList());
        if (!expected.isEmpty() && !expected.get(0).summary()) {
          assertThat(actual.get(0).ts()).isEqualTo(expected.get(0).ts());
          rows++;
        }
      }
    }
    assertThat(rows).isEqualTo(12);
  }
}
