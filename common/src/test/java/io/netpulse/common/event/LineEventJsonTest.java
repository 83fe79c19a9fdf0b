package io.netpulse.common.event;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Records of every layout of the lines topic read back, so that history written by older collectors replays. */
@Tag("unit")
class LineEventJsonTest {

  @Test
  void recordsWrittenBeforeInstanceEpochAndGapStillRead() throws Exception {
    String v0 = "{\"schema\":1,\"host\":\"sut\",\"source\":\"ss-summary\",\"run\":null,\"seq\":7,\"ts\":1000,"
        + "\"line\":\"TCP:   3 (estab 1, closed 0, orphaned 0, timewait 0)\"}";
    String v1 = "{\"schema\":1,\"host\":\"sut\",\"source\":\"netperf\",\"run\":\"r1\",\"seq\":0,\"ts\":2000,"
        + "\"line\":\"Interim result: 1.00\",\"instance\":\"2\"}";

    assertThat(Json.read(v0.getBytes(StandardCharsets.UTF_8), LineEvent.class)).isEqualTo(new LineEvent(1, "sut",
        "ss-summary", null, 7, 1000, "TCP:   3 (estab 1, closed 0, orphaned 0, timewait 0)", null, null, null));
    assertThat(Json.read(v1.getBytes(StandardCharsets.UTF_8), LineEvent.class)).isEqualTo(
        LineEvent.of("sut", "netperf", "r1", 0, 2000, "Interim result: 1.00").withInstance("2"));
  }

  @Test
  void epochAndGapGoThroughJsonAndSurviveWithInstance() throws Exception {
    LineEvent line = new LineEvent(LineEvent.SCHEMA, "sut", Sources.SAR_DEV, null, 1000, 5000, "Linux 6.1", null,
        1_796_117_472_017L, 10_810L);

    String json = Json.text(line);
    assertThat(json).contains("\"epoch\":1796117472017").contains("\"gapMs\":10810");
    assertThat(Json.read(json.getBytes(StandardCharsets.UTF_8), LineEvent.class)).isEqualTo(line);
    assertThat(line.withInstance("1")).extracting(LineEvent::epoch, LineEvent::gapMs, LineEvent::instance)
        .containsExactly(1_796_117_472_017L, 10_810L, "1");
  }
}
