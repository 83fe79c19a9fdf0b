package io.netpulse.common.event;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Consecutive lines of one source as one record on {@code lines}: what a sampler printed in one burst (sar's block
 * for one second, one {@code ss -s} output). The record count, not the bytes, is what the broker and the processor
 * pay for, and a sampler prints several lines a second. Each line keeps its number ({@code seq + i}) and its read time
 * ({@code ts + offsetsMs[i]}), so {@link #events()} gives back exactly the {@link LineEvent}s that were grouped.
 *
 * @param seq       the first line's sequence number; line i has {@code seq + i}
 * @param ts        epoch ms the first line was read
 * @param lines     the raw lines, in order
 * @param offsetsMs each line's read time in ms after {@code ts}; null when every line was read in the same ms
 * @param gapMs     the first line's gap (see {@link LineEvent#gapMs}); a later line never has one
 * @see LineEvent for the other fields
 */
public record LineBlock(int schema, String host, String source, String run, long seq, long ts, List<String> lines,
    List<Integer> offsetsMs, String instance, Long epoch, Long gapMs) {

  public static final int SCHEMA = 2;

  public LineBlock {
    // a null line is kept (not refused here): the processor sends it to the dead-letter topic with the reason
    lines = lines == null ? null : java.util.Collections.unmodifiableList(new ArrayList<>(lines));
    offsetsMs = offsetsMs == null ? null : List.copyOf(offsetsMs);
  }

  /**
   * The block of {@code events}, which must be one source's consecutive lines: same host, source, run, instance and
   * epoch, each numbered one after the previous, read no earlier than it, and only the first after a gap.
   */
  public static LineBlock of(List<LineEvent> events) {
    if (events.isEmpty()) {
      throw new IllegalArgumentException("a block holds at least one line");
    }
    LineEvent first = events.get(0);
    List<String> lines = new ArrayList<>(events.size());
    List<Integer> offsets = new ArrayList<>(events.size());
    boolean anyOffset = false;
    for (int i = 0; i < events.size(); i++) {
      LineEvent e = events.get(i);
      String why = i == 0 ? null : whyNotNext(events.get(i - 1), e, first);
      if (why != null) {
        throw new IllegalArgumentException("line " + i + " (seq " + e.seq() + ") cannot join the block of " + first.host()
            + "/" + first.source() + " from seq " + first.seq() + ": " + why);
      }
      lines.add(e.line());
      int offset = Math.toIntExact(e.ts() - first.ts());
      offsets.add(offset);
      anyOffset |= offset != 0;
    }
    return new LineBlock(SCHEMA, first.host(), first.source(), first.run(), first.seq(), first.ts(), lines,
        anyOffset ? offsets : null, first.instance(), first.epoch(), first.gapMs());
  }

  /** Why {@code next} cannot follow {@code previous} in the block that starts with {@code first}; null if it can. */
  public static String whyNotNext(LineEvent previous, LineEvent next, LineEvent first) {
    if (!Objects.equals(next.host(), first.host()) || !Objects.equals(next.source(), first.source())
        || !Objects.equals(next.run(), first.run()) || !Objects.equals(next.instance(), first.instance())
        || !Objects.equals(next.epoch(), first.epoch())) {
      return "another host, source, run, instance or epoch";
    }
    if (next.seq() != previous.seq() + 1) {
      return "seq " + next.seq() + " does not follow " + previous.seq();
    }
    if (next.gapMs() != null) {
      return "it comes after a gap";
    }
    if (next.ts() < previous.ts() || next.ts() - first.ts() > Integer.MAX_VALUE) {
      return "read at " + next.ts() + ", out of order or too late";
    }
    return null;
  }

  public int size() {
    return lines.size();
  }

  /** The lines as the events they were grouped from. */
  public List<LineEvent> events() {
    List<LineEvent> events = new ArrayList<>(lines.size());
    for (int i = 0; i < lines.size(); i++) {
      long at = offsetsMs == null ? ts : ts + offsetsMs.get(i);
      events.add(new LineEvent(LineEvent.SCHEMA, host, source, run, seq + i, at, lines.get(i), instance, epoch,
          i == 0 ? gapMs : null));
    }
    return events;
  }
}
