package io.netpulse.common.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LineBlockTest {

  private static LineEvent line(long seq, long ts, String text, Long gapMs) {
    return new LineEvent(LineEvent.SCHEMA, "sut", "sar-dev", "r1", seq, ts, text, "2", 1_700_000_000_000L, gapMs);
  }

  @Test
  void aBlockGivesBackExactlyTheLinesItWasMadeOfThroughJson() throws Exception {
    List<LineEvent> lines = List.of(line(10, 5_000, "", 1_200L), line(11, 5_000, "header", null),
        line(12, 5_002, "row \"quoted\" é", null));
    LineBlock block = LineBlock.of(lines);
    assertThat(block.schema()).isEqualTo(2);
    assertThat(block.seq()).isEqualTo(10);
    assertThat(block.offsetsMs()).containsExactly(0, 0, 2);
    assertThat(block.events()).isEqualTo(lines);
    assertThat(LineRecords.read(Json.bytes(block))).isEqualTo(lines);
  }

  @Test
  void linesReadInTheSameMillisecondNeedNoOffsets() throws Exception {
    List<LineEvent> lines = List.of(line(0, 7_000, "a", null), line(1, 7_000, "b", null));
    LineBlock block = LineBlock.of(lines);
    assertThat(block.offsetsMs()).isNull();
    assertThat(Json.text(block)).doesNotContain("\"offsetsMs\":[");
    assertThat(LineRecords.read(Json.bytes(block))).isEqualTo(lines);
  }

  @Test
  void aOneLineRecordAsWrittenBeforeBlocksIsStillRead() throws Exception {
    String v1 = "{\"schema\":1,\"host\":\"sut\",\"source\":\"sar-dev\",\"run\":null,\"seq\":3,\"ts\":9,\"line\":\"x\"}";
    assertThat(LineRecords.read(v1.getBytes(StandardCharsets.UTF_8)))
        .containsExactly(LineEvent.of("sut", "sar-dev", null, 3, 9, "x"));
  }

  @Test
  void onlyOneSourcesConsecutiveLinesMakeABlock() {
    LineEvent first = line(5, 100, "a", null);
    assertThatThrownBy(() -> LineBlock.of(List.of(first, line(7, 100, "b", null))))
        .hasMessage("line 1 (seq 7) cannot join the block of sut/sar-dev from seq 5: seq 7 does not follow 5");
    assertThatThrownBy(() -> LineBlock.of(List.of(first, line(6, 100, "b", 50L))))
        .hasMessageEndingWith(": it comes after a gap");
    assertThatThrownBy(() -> LineBlock.of(List.of(first, line(6, 99, "b", null))))
        .hasMessageEndingWith(": read at 99, out of order or too late");
    LineEvent otherSource = new LineEvent(1, "sut", "ss-summary", "r1", 6, 100, "b", "2", 1_700_000_000_000L, null);
    assertThatThrownBy(() -> LineBlock.of(List.of(first, otherSource)))
        .hasMessageEndingWith(": another host, source, run, instance or epoch");
    assertThatThrownBy(() -> LineBlock.of(List.of())).hasMessage("a block holds at least one line");
  }

  @Test
  void aBlockThatDoesNotAddUpIsRefusedWithWhatIsWrong() {
    assertThatThrownBy(() -> LineRecords.read(
        "{\"schema\":2,\"host\":\"h\",\"source\":\"s\",\"seq\":0,\"ts\":1,\"lines\":[]}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessage("a line block without lines");
    assertThatThrownBy(() -> LineRecords.read("[1]".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessage("not a JSON object");
  }

  /** Read in one pass (not a tree first): either layout, whatever whitespace or byte order mark precedes it. */
  @Test
  void eitherLayoutReadsAndWhatIsNeitherSaysWhy() throws Exception {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    String one = " \n{\"schema\":1,\"host\":\"h\",\"source\":\"sar-dev\",\"seq\":7,\"ts\":5,\"line\":\"x\"}";
    byte[] withBom = new byte[bom.length + one.length()];
    System.arraycopy(bom, 0, withBom, 0, bom.length);
    System.arraycopy(one.getBytes(StandardCharsets.UTF_8), 0, withBom, bom.length, one.length());
    assertThat(LineRecords.read(withBom))
        .containsExactly(new LineEvent(1, "h", "sar-dev", null, 7, 5, "x", null, null, null));
    assertThat(LineRecords.read(("{\"schema\":2,\"host\":\"h\",\"source\":\"s\",\"run\":\"r\",\"seq\":3,\"ts\":10,"
        + "\"lines\":[\"a\",\"b\"],\"offsetsMs\":[0,4],\"gapMs\":900}").getBytes(StandardCharsets.UTF_8)))
        .containsExactly(new LineEvent(1, "h", "s", "r", 3, 10, "a", null, null, 900L),
            new LineEvent(1, "h", "s", "r", 4, 14, "b", null, null, null));
    assertThatThrownBy(() -> LineRecords.read("null".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessage("not a JSON object");
    assertThatThrownBy(() -> LineRecords.read("{\"lines\":null}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class).hasMessage("a line block without lines");
    assertThatThrownBy(() -> LineRecords.read("{\"lines\":[\"a\"".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class);
  }
}
