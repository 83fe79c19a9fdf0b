package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.LineBlock;
import io.netpulse.common.event.LineEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class LineBlocksTest {

  private static LineEvent line(String source, long seq, long ts) {
    return new LineEvent(LineEvent.SCHEMA, "sut", source, null, seq, ts, source + " " + seq, null, 1L, null);
  }

  @Test
  void eachSourcesBurstIsOneBlockAndEveryLineIsKeptInOrder() {
    List<LineEvent> lines = new ArrayList<>();
    // two seconds of sar (4 lines each) and one ss -s output (3 lines), the way the buffer holds them
    for (int i = 0; i < 4; i++) {
      lines.add(line("sar-dev", i, 1_000));
    }
    for (int i = 0; i < 3; i++) {
      lines.add(line("ss-summary", i, 1_010));
    }
    for (int i = 4; i < 8; i++) {
      lines.add(line("sar-dev", i, 2_001));
    }
    List<LineBlock> blocks = LineBlocks.of(lines);
    assertThat(blocks).extracting(LineBlock::source, LineBlock::seq, LineBlock::size)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("sar-dev", 0L, 4),
            org.assertj.core.groups.Tuple.tuple("ss-summary", 0L, 3),
            org.assertj.core.groups.Tuple.tuple("sar-dev", 4L, 4));
    assertThat(blocks.stream().flatMap(b -> b.events().stream()).toList()).isEqualTo(lines);
  }

  @Test
  void aPauseBetweenBurstsAGapOrTheSizeLimitsStartANewBlock() {
    List<LineEvent> lines = new ArrayList<>();
    lines.add(line("sar-dev", 0, 1_000));
    lines.add(line("sar-dev", 1, 1_000 + LineBlocks.BURST_GAP_MS)); // still the same burst
    lines.add(line("sar-dev", 2, 1_001 + 2 * LineBlocks.BURST_GAP_MS)); // the next interval
    LineEvent afterGap = line("sar-dev", 3, 3_000);
    lines.add(new LineEvent(1, "sut", "sar-dev", null, 3, 3_000, afterGap.line(), null, 1L, 700L));
    assertThat(LineBlocks.of(lines)).extracting(LineBlock::size).containsExactly(2, 1, 1);

    List<LineEvent> many = new ArrayList<>();
    for (int i = 0; i < LineBlocks.MAX_LINES + 1; i++) {
      many.add(line("sar-dev", i, 5_000));
    }
    assertThat(LineBlocks.of(many)).extracting(LineBlock::size).containsExactly(LineBlocks.MAX_LINES, 1);

    String wide = "x".repeat(LineBlocks.MAX_CHARS / 2);
    List<LineEvent> big = List.of(new LineEvent(1, "sut", "s", null, 0, 1, wide, null, 1L, null),
        new LineEvent(1, "sut", "s", null, 1, 1, wide, null, 1L, null),
        new LineEvent(1, "sut", "s", null, 2, 1, "y", null, 1L, null));
    assertThat(LineBlocks.of(big)).extracting(LineBlock::size).containsExactly(2, 1);
  }
}
