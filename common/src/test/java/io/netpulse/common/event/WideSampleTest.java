package io.netpulse.common.event;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WideSampleTest {

  static final long T = 1_796_404_626_000L;

  static Sample sar(String metric, double value, String unit, String iface, long ts) {
    return Sample.of(metric, value, unit, iface, ts).withOrigin("sut", "run-1", "sar-dev");
  }

  @Test
  void aSarRowsFourValuesAreOneNetRecordAndEachInterfaceAndSecondItsOwn() {
    List<Sample> block = List.of(
        sar("rx_pps", 47_176, "packets/s", "veth0", T), sar("tx_pps", 12, "packets/s", "veth0", T),
        sar("rx_bps", 39_990_784, "bit/s", "veth0", T), sar("tx_bps", 8_192, "bit/s", "veth0", T),
        sar("rx_pps", 0, "packets/s", "lo", T), sar("rx_pps", 47_180, "packets/s", "veth0", T + 1_000));
    List<WideSample> wide = WideSample.group(block, Sources::measurementOf);
    assertThat(wide).hasSize(3);
    WideSample first = wide.get(0);
    assertThat(first.name()).isEqualTo("net");
    assertThat(first.tags()).isEqualTo(Map.of("host", "sut", "interface", "veth0", "run", "run-1", "source",
        "sar-dev"));
    assertThat(first.fields()).containsExactly(Map.entry("rx_pps", 47_176.0), Map.entry("tx_pps", 12.0),
        Map.entry("rx_bps", 39_990_784.0), Map.entry("tx_bps", 8_192.0));
    assertThat(first.units()).containsEntry("rx_bps", "bit/s").containsEntry("rx_pps", "packets/s");
    assertThat(first.time()).isEqualTo(T);
    assertThat(wide.get(1).tags()).containsEntry("interface", "lo");
    assertThat(wide.get(2).time()).isEqualTo(T + 1_000);
    // nothing lost or changed on the way: the wide records give back exactly the samples
    assertThat(wide.stream().flatMap(w -> w.samples().stream()).toList()).containsExactlyInAnyOrderElementsOf(block);
  }

  @Test
  void twoOutputsStampedWithTheSameMillisecondStayTwoRows() {
    // a stalled `ss -s` loop prints two outputs at once and the collector reads them in the same millisecond
    List<Sample> both = List.of(
        Sample.of("tcp_estab", 220, "connections", null, T).withOrigin("sut", null, "ss-summary"),
        Sample.of("tcp_closed", 4105, "connections", null, T).withOrigin("sut", null, "ss-summary"),
        Sample.of("tcp_estab", 222, "connections", null, T).withOrigin("sut", null, "ss-summary"),
        Sample.of("tcp_closed", 22203, "connections", null, T).withOrigin("sut", null, "ss-summary"));
    List<WideSample> rows = WideSample.group(both, Sources::measurementOf);
    assertThat(rows).extracting(WideSample::fields).containsExactly(
        Map.of("tcp_estab", 220.0, "tcp_closed", 4105.0), Map.of("tcp_estab", 222.0, "tcp_closed", 22203.0));
    assertThat(rows.stream().flatMap(w -> w.samples().stream()).toList()).containsExactlyElementsOf(both);
  }

  @Test
  void sourcesAreNamedLikeTelegrafsMeasurementsAndTagsOnlyWhatTheSampleHas() {
    Sample estab = Sample.of("tcp_estab", 16_378, "connections", null, T).withOrigin("sut", null, "ss-summary");
    Sample cpu = Sample.of("cpu_busy_pct", 41.5, "%", "cpu1", T).withOrigin("peer", null, "proc-stat");
    Sample rtt = Sample.of("rtt_avg_ms", 0.079, "ms", null, T).withOrigin("peer", "r", "ping").asSummary();
    List<WideSample> wide = WideSample.group(List.of(estab, cpu, rtt), Sources::measurementOf);
    assertThat(wide).extracting(WideSample::name).containsExactly("netstat", "cpu", "ping");
    assertThat(wide.get(0).tags()).isEqualTo(Map.of("host", "sut", "source", "ss-summary"));
    assertThat(wide.get(1).tags()).containsEntry("cpu", "cpu1").doesNotContainKey("interface");
    assertThat(wide.get(2).tags()).containsEntry("summary", "true");
    assertThat(wide.stream().flatMap(w -> w.samples().stream()).toList()).containsExactly(estab, cpu, rtt);
  }

  @Test
  void travelsAsJsonAndBack() throws Exception {
    WideSample w = WideSample.group(List.of(sar("rx_bps", 1.5e9, "bit/s", "eth0", T)), Sources::measurementOf).get(0);
    String json = Json.text(w);
    assertThat(json).contains("\"name\":\"net\"", "\"fields\":{\"rx_bps\":1.5E9}");
    assertThat(Json.mapper().readValue(json, WideSample.class)).isEqualTo(w);
  }

  /** Its own serializer writes exactly what Jackson's record serializer would: consumers see the same JSON. */
  @Test
  void writtenFieldByFieldItIsTheJsonJacksonGivesTheRecord() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper plain = ((com.fasterxml.jackson.databind.json.JsonMapper) Json.mapper())
        .rebuild().disable(com.fasterxml.jackson.databind.MapperFeature.USE_ANNOTATIONS).build();
    java.util.Map<String, Double> odd = new java.util.LinkedHashMap<>();
    odd.put("tiny", 4.9E-324);
    odd.put("huge", 1.7976931348623157E308);
    odd.put("nan", Double.NaN);
    odd.put("inf", Double.NEGATIVE_INFINITY);
    odd.put("none", null);
    odd.put("third", 1 / 3.0);
    List<WideSample> rows = List.of(
        WideSample.group(List.of(sar("rx_bps", 1.5e9, "bit/s", "eth0", T), sar("rx_pps", 12.0, "packets/s", "eth0", T),
            sar("tx_bps", 0.0, "bit/s", "eth0", T)), Sources::measurementOf).get(0),
        new WideSample(1, null, Map.of("host", "h", "summary", "true"), odd, Map.of("tiny", "x"), -1L),
        new WideSample(1, "netstat", Map.of(), Map.of(), Map.of(), 0L));
    for (WideSample w : rows) {
      assertThat(Json.text(w)).isEqualTo(plain.writeValueAsString(w));
    }
    assertThat(Json.mapper().readValue(Json.bytes(rows.get(0)), WideSample.class)).isEqualTo(rows.get(0));
  }
}
