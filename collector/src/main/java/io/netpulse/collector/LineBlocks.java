package io.netpulse.collector;

import io.netpulse.common.event.LineBlock;
import io.netpulse.common.event.LineEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups the lines the shipper sends into {@link LineBlock}s: one record per burst a source printed (a sampler's
 * interval), not one per line.
 */
final class LineBlocks {

  /**
   * A pause longer than this between two lines of a source starts a new block: samplers print their interval's lines
   * in one burst, a second apart, so a block is one interval even when the buffer holds many (after an outage).
   */
  static final long BURST_GAP_MS = 500;
  static final int MAX_LINES = 1000;
  /**
   * Characters of line text per block: JSON escaping can make a character of tool output at most six bytes, so a
   * block stays well under Kafka's default 1 MiB per record, which would refuse it for good.
   */
  static final int MAX_CHARS = 64 * 1024;

  private LineBlocks() {}

  /** {@code lines} in order, as blocks of consecutive lines of one source, in the same order. */
  static List<LineBlock> of(List<LineEvent> lines) {
    List<LineBlock> blocks = new ArrayList<>();
    List<LineEvent> current = new ArrayList<>();
    int chars = 0;
    for (LineEvent line : lines) {
      int length = line.line() == null ? 0 : line.line().length();
      if (!current.isEmpty() && !joins(current, line, chars + length)) {
        blocks.add(LineBlock.of(current));
        current = new ArrayList<>();
        chars = 0;
      }
      current.add(line);
      chars += length;
    }
    if (!current.isEmpty()) {
      blocks.add(LineBlock.of(current));
    }
    return blocks;
  }

  private static boolean joins(List<LineEvent> block, LineEvent next, int charsWithIt) {
    LineEvent previous = block.get(block.size() - 1);
    return block.size() < MAX_LINES && charsWithIt <= MAX_CHARS && next.ts() - previous.ts() <= BURST_GAP_MS
        && LineBlock.whyNotNext(previous, next, block.get(0)) == null;
  }
}
